import ArgumentParser
import Foundation
import Logging
import SystemdKit
import WidgetHost
import WidgetProtocol

/// `widget-host`: the web home screen. Serves the daemon's widgets to browsers, as a user unit
/// (`systemctl --user start widget-host`) or a system unit for a kiosk.
struct WidgetHostCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "widget-host",
        abstract: "The web home screen of widget-scheduler: see, add, arrange and configure widgets in a browser.",
        discussion: """
            Settings come from --config (default /etc/widget-scheduler/widget-host.toml when run by root or a system \
            unit, else $XDG_CONFIG_HOME/widget-scheduler/widget-host.toml), then from the options below. Only the \
            local machine can connect unless a token is configured.
            """)

    @Option(help: "Where to listen: HOST:PORT, or unix:PATH (default 127.0.0.1:8470).")
    var listen: String?

    @Option(help: "The daemon's control socket (default $WIDGET_SCHEDULER_SOCKET, else the system socket).")
    var socket: String?

    @Option(name: .customLong("state-directory"), help: "Where the layout is saved (default $STATE_DIRECTORY).")
    var stateDirectory: String?

    @Option(name: .customLong("token-file"), help: "A file holding the token other machines must present.")
    var tokenFile: String?

    @Option(name: .customLong("tap-command"), parsing: .remaining,
            help: "Open tapped URLs with this command (the URL is its last argument) instead of the browser.")
    var tapCommand: [String] = []

    @Option(help: "The settings file.")
    var config: String?

    @Option(help: "The page's title.")
    var title: String?

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        LoggingBootstrap.bootstrap(identifier: "widget-host")
        let logger = Logger(label: "widget-host")
        let settings: HostSettings
        do {
            settings = try self.settings(environment: environment)
        } catch {
            logger.critical("\(error)")
            throw ExitCode(78)  // EX_CONFIG
        }
        let server = HostServer(settings: settings, logger: logger)
        try await server.run { address in
            logger.info("listening on \(address), daemon at \(settings.daemonSocket)")
            _ = try? Notifier().ready(status: "Serving the home screen on \(address)")
        }
    }

    func settings(environment: [String: String]) throws(HostSettingsError) -> HostSettings {
        let defaultSocket = environment[ControlInterface.socketEnvironmentVariable].flatMap { $0.isEmpty ? nil : $0 }
            ?? ControlInterface.defaultSocketPath
        var settings = HostSettings(daemonSocket: defaultSocket,
                                    stateDirectory: HostSettings.defaultStateDirectory(environment: environment))
        let file = config ?? Self.defaultConfigPath(environment: environment)
        settings = try HostSettingsFile.load(path: file, over: settings)
        if let listen { settings.listener = try HostSettings.Listener(parsing: listen) }
        if let socket { settings.daemonSocket = socket }
        if let stateDirectory { settings.stateDirectory = URL(fileURLWithPath: stateDirectory, isDirectory: true) }
        if let tokenFile { settings.token = try HostSettingsFile.readToken(path: tokenFile) }
        if !tapCommand.isEmpty { settings.tapCommand = tapCommand }
        if let title { settings.title = title }
        return try settings.validated()
    }

    static func defaultConfigPath(environment: [String: String]) -> String {
        if getuid() == 0 || environment["INVOCATION_ID"] != nil && environment["XDG_RUNTIME_DIR"] == nil {
            return HostSettingsFile.systemPath
        }
        let base = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        return base + "/widget-scheduler/widget-host.toml"
    }
}
