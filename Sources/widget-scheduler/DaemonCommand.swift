import ArgumentParser
import Foundation
import Logging
import SystemdKit
import WidgetProtocol
import WidgetProviders
import WidgetSchedulerRuntime

/// `widget-scheduler [options]`: the daemon, in the foreground; systemd does the rest.
struct DaemonCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the scheduler daemon in the foreground (the default).",
        discussion: """
            Runs unprivileged with these options. Under systemd, STATE_DIRECTORY and RUNTIME_DIRECTORY give the \
            defaults, and a socket passed by socket activation is used instead of --socket.
            """,
        // The default subcommand: `widget-scheduler --version` reaches it, so it answers too.
        version: ProductVersion.current
    )

    @Option(help: ArgumentHelp("The configuration file (TOML); a missing file means the defaults.",
                               valueName: "file"))
    var config = "/etc/widget-scheduler/widget-scheduler.toml"

    @Option(help: ArgumentHelp("Where the state lives (default: $STATE_DIRECTORY, else /var/lib/widget-scheduler).",
                               valueName: "dir"))
    var stateDir: String?

    @Option(help: ArgumentHelp("Where the socket and the runs' image directories live, best on a tmpfs (default: "
                               + "$RUNTIME_DIRECTORY, else /run/widget-scheduler).", valueName: "dir"))
    var runtimeDir: String?

    @Option(help: ArgumentHelp("A directory of provider manifests (*.toml); repeatable; replaces the defaults "
                               + "/usr/share/widget-scheduler/providers and /etc/widget-scheduler/providers.",
                               valueName: "dir"))
    var providersDir: [String] = []

    @Option(help: ArgumentHelp("The control socket (default: <runtime-dir>/control.socket).", valueName: "path"))
    var socket: String?

    @Flag(help: ArgumentHelp("Start even when the state shows it lost widgets (an old or emptied state.sqlite), "
                             + "going on without them; without it the daemon refuses to start."))
    var acceptStateLoss = false

    @Option(help: ArgumentHelp("Log level: trace, debug, info, notice, warning, error, critical.", valueName: "level"))
    var logLevel: String = "info"

    func validate() throws {
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level: expected one of trace, debug, info, notice, warning, error, critical; "
                                  + "got \"\(logLevel)\"")
        }
    }

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let target = LoggingBootstrap.automaticTarget()
        LoggingBootstrap.bootstrap(identifier: "widget-scheduler", level: Logger.Level(rawValue: logLevel) ?? .info,
                                   target: target)
        let logger = Logger(label: "widget-scheduler")
        let options = Daemon.Options(
            configPath: config,
            stateDirectory: stateDir ?? Self.firstPath(environment["STATE_DIRECTORY"]) ?? "/var/lib/widget-scheduler",
            runtimeDirectory: runtimeDir ?? Self.firstPath(environment["RUNTIME_DIRECTORY"]) ?? "/run/widget-scheduler",
            providerDirectories: providersDir.isEmpty ? ManifestLoader.defaultDirectories : providersDir,
            socketPath: socket, version: WidgetSchedulerCommand.version, acceptStateLoss: acceptStateLoss)
        do {
            let daemon = try Daemon(options: options, logger: logger)
            let status = try daemon.run()
            throw ExitCode(status)
        } catch let error as Daemon.StartError {
            // Once on stderr, for whoever started the daemon, and once in the journal when it logs there: the
            // stderr log handler would print it a second time.
            if target == .journal {
                logger.critical("cannot start: \(error)",
                                metadata: error.messageID.map { [JournalField.messageID: $0.metadataValue] })
            }
            FileHandle.standardError.write(Data("widget-scheduler: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }

    /// systemd passes colon-separated lists when a unit names several directories; the first is ours.
    static func firstPath(_ value: String?) -> String? {
        value?.split(separator: ":").first.map(String.init)
    }
}
