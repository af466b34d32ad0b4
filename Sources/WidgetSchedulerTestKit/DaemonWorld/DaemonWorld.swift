import Foundation
import Glibc
import WidgetProtocol

/// One test's world: a private temporary directory (world-traversable, so `nobody` can reach the socket), a
/// configuration file, a providers directory with the scripted provider, and the real `widget-scheduler` running on
/// them, logging to `daemon.log` in the `LEVEL message KEY=value` form with the test-only fault switches on. The
/// daemon, every command still running and every provider process left are killed when the world goes away,
/// whatever the outcome. The integration and reliability suites both run in it.
public final class DaemonWorld {
    /// Who runs a `widgetctl` command.
    public enum User {
        case root
        /// uid nobody, gid nogroup, no supplementary groups (`setpriv`).
        case nobody
    }

    public let root: URL
    public let stateDirectory: URL
    public let runtimeDirectory: URL
    public let providersDirectory: URL
    public let configURL: URL
    /// Where the daemon's standard output and error go.
    public let daemonLogURL: URL
    public let socketPath: String
    /// The daemon and watch clients run under SCHED_FIFO (for lateness measurements).
    public let realTime: Bool
    /// Why the daemon could not run under SCHED_FIFO when `realTime` asked it (see `ChildProcess.makeRealTime`).
    public private(set) var realTimeRefusal: String?
    private var daemon: ChildProcess?
    private var streams: [StreamingCommand] = []

    /// Creates the directories, writes `config` as the configuration file and installs the scripted provider.
    /// Nothing runs until `start()`. With `realTime`, the daemon and `watch` clients run under SCHED_FIFO.
    public init(config: String = "", realTime: Bool = false) throws {
        self.realTime = realTime
        var template = Array("/tmp/widget-world-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp: errno \(errno)") }
        root = URL(fileURLWithPath: String(cString: made), isDirectory: true)
        chmod(root.path, 0o755)
        stateDirectory = root.appendingPathComponent("state")
        runtimeDirectory = root.appendingPathComponent("run")
        providersDirectory = root.appendingPathComponent("providers")
        configURL = root.appendingPathComponent("widget-scheduler.toml")
        socketPath = runtimeDirectory.appendingPathComponent("control.socket").path
        daemonLogURL = root.appendingPathComponent("daemon.log")
        try FileManager.default.createDirectory(at: providersDirectory, withIntermediateDirectories: true)
        // Writable by every user: a test's provider or hostile user may run as another uid (setpriv).
        chmod(providersDirectory.path, 0o777)
        try config.write(to: configURL, atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: daemonLogURL.path, contents: nil)
        try write(ScriptedProvider.source, to: ScriptedProvider.fileName, executable: true)
    }

    deinit {
        for stream in streams { stream.stop() }
        stopDaemon()
        ProviderProcesses.killAll(under: providersDirectory.path)
        let environment = ProcessInfo.processInfo.environment
        guard environment["WIDGET_WORLD_KEEP"] == nil else { return }
        // A provider of a run the kill -9 orphaned may still write its log for a moment: try again briefly.
        for _ in 0..<20 {
            if (try? FileManager.default.removeItem(at: root)) != nil
                || !FileManager.default.fileExists(atPath: root.path) { return }
            usleep(50_000)
        }
    }

    // MARK: - Files

    /// Writes a file into the providers directory, never left open for writing in a child of another test (a
    /// script the daemon executes would fail with ETXTBSY: `CloseOnExecFile`).
    public func write(_ text: String, to name: String, executable: Bool = false) throws {
        try CloseOnExecFile.write(text, to: providersDirectory.appendingPathComponent(name).path,
                                  mode: executable ? 0o755 : 0o644)
    }

    /// Writes a manifest `<kind>.toml` serving `kind` with the scripted provider; `extra` goes before the
    /// `[[widget]]` table, `widget` inside it.
    public func addScriptedKind(_ kind: String, manifest extra: String = "", widget: String = "",
                                behaviour: ScriptedProvider.Behaviour = .init()) throws {
        try setBehaviour(behaviour, for: kind)
        try write("""
            exec = "./\(ScriptedProvider.fileName)"
            timeout = 10
            \(extra)

            [[widget]]
            kind = "\(kind)"
            \(widget)
            """, to: "\(kind).toml")
    }

    /// Writes `<kind>.sh` and a manifest `<kind>.toml` serving `kind` with it.
    public func addKind(_ kind: String, script: String, timeout: Double = 5, memoryMax: String = "64M",
                        manifestExtra: String = "", widgetExtra: String = "") throws {
        try write(script, to: "\(kind).sh", executable: true)
        try write("""
            exec = "./\(kind).sh"
            timeout = \(timeout)
            memory-max = "\(memoryMax)"
            \(manifestExtra)

            [[widget]]
            kind = "\(kind)"
            \(widgetExtra)
            """, to: "\(kind).toml")
    }

    /// Changes what the scripted provider does for `kind` from its next run on.
    public func setBehaviour(_ behaviour: ScriptedProvider.Behaviour, for kind: String) throws {
        let data = try JSONEncoder().encode(behaviour)
        try data.write(to: providersDirectory.appendingPathComponent("behaviour-\(kind).json"), options: .atomic)
    }

    /// Every run the scripted provider logged so far.
    public var runs: [ScriptedProvider.Run] {
        ScriptedProvider.runs(in: providersDirectory)
    }

    /// What the daemon wrote on stdout and stderr so far.
    public var daemonLog: String {
        (try? String(contentsOf: daemonLogURL, encoding: .utf8)) ?? ""
    }

    /// The daemon's log lines so far.
    public var logLines: [DaemonLogLine] {
        DaemonLogLine.parse(daemonLog)
    }

    // MARK: - The daemon

    /// The daemon's process id while it runs, else 0.
    public var daemonPID: pid_t {
        daemon?.pid ?? 0
    }

    /// True while the daemon process exists and has not exited (it is reaped once it has).
    public var isRunning: Bool {
        daemon?.isRunning ?? false
    }

    /// Starts `widget-scheduler` (via `prefix`, e.g. `prlimit`, with `extraEnvironment` and `extraArguments` added)
    /// and waits until it answers a call.
    public func start(prefix: [String] = [], logLevel: String = "debug", extraEnvironment: [String: String] = [:],
                      extraArguments: [String] = []) throws {
        let (arguments, environment) = try daemonInvocation(prefix: prefix, logLevel: logLevel,
                                                             extraEnvironment: extraEnvironment,
                                                             extraArguments: extraArguments)
        let input = try Descriptor.null()
        defer { close(input) }
        let log = try Descriptor.openForWriting(daemonLogURL.path, append: true)
        defer { close(log) }
        let process = try ChildProcess(arguments, environment: environment, input: input, output: log, error: log)
        daemon = process
        if realTime { realTimeRefusal = process.makeRealTime() }
        _ = try eventually("the daemon's socket \(socketPath); log:\n\(daemonLog.suffix(4000))") { () -> Bool? in
            if let ended = process.termination {
                throw TestFailure("the daemon ended (\(ended)) before listening:\n\(daemonLog.suffix(4000))")
            }
            // A connection alone can reach the killed daemon's listening socket, still held open by a provider it
            // was spawning (posix_spawn's child keeps the parent's descriptors until its exec): only an answer
            // proves that the new daemon listens.
            guard let connection = try? RawVarlinkConnection(path: socketPath) else { return nil }
            return (try? connection.call(ControlMethod.status.qualifiedName, timeout: 2)) != nil ? true : nil
        }
    }

    /// The daemon's command line and environment for this world, as `start` runs it.
    public func daemonInvocation(
        prefix: [String] = [], logLevel: String = "debug", extraEnvironment: [String: String] = [:],
        extraArguments: [String] = []
    ) throws -> (arguments: [String], environment: [String: String]) {
        let arguments = prefix + [
            try BuiltProducts.executable("widget-scheduler"), "--config", configURL.path,
            "--state-dir", stateDirectory.path, "--runtime-dir", runtimeDirectory.path,
            "--providers-dir", providersDirectory.path, "--log-level", logLevel,
        ] + extraArguments
        var environment = ProcessInfo.processInfo.environment
        for name in ["NOTIFY_SOCKET", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES", "WATCHDOG_USEC", "WATCHDOG_PID",
                     "JOURNAL_STREAM", "STATE_DIRECTORY", "RUNTIME_DIRECTORY"] {
            environment[name] = nil
        }
        environment["LOG_TARGET"] = "stderr"
        environment["WIDGET_SCHEDULER_TEST_FAULTS"] = "1"
        environment["SWIFT_BACKTRACE"] = "enable=no"
        environment.merge(extraEnvironment) { _, extra in extra }
        return (arguments, environment)
    }

    /// Sends `signal` to the daemon if it runs; SIGKILL also waits for it to be gone (`stopDaemon`).
    public func signal(_ signal: Int32) {
        guard signal != SIGKILL else { return stopDaemon() }
        daemon?.signal(signal)
    }

    /// Waits up to `timeout` seconds for the daemon to exit by itself; returns how it ended, or nil if it still runs.
    public func waitForDaemonExit(timeout: Double) -> ChildProcess.Termination? {
        guard let ended = daemon?.waitForExit(timeout: timeout) else { return nil }
        daemon = nil
        return ended
    }

    /// Kills the daemon with SIGKILL (a crash, as far as its state can tell) and waits for it to be gone.
    public func stopDaemon() {
        daemon?.killAndWait()
        daemon = nil
    }

    /// Sets the daemon's test clock offset (seconds added to its wall clock) and tells it with SIGUSR2.
    public func setWallClockOffset(_ seconds: Double) throws {
        try "\(seconds)\n".write(to: runtimeDirectory.appendingPathComponent("test-clock-offset"), atomically: true,
                                  encoding: .utf8)
        signal(SIGUSR2)
    }

    // MARK: - Raw calls

    /// A fresh connection for one call, or many.
    public func connect() throws -> RawVarlinkConnection {
        try RawVarlinkConnection(path: socketPath)
    }

    // MARK: - widgetctl

    private func command(_ arguments: [String], as user: User) -> [String] {
        switch user {
        case .root: return arguments
        case .nobody: return ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"] + arguments
        }
    }

    private func widgetctlCommand(_ arguments: [String], as user: User) throws -> [String] {
        command([try BuiltProducts.executable("widgetctl")] + arguments, as: user)
    }

    private var clientEnvironment: [String: String] {
        ["WIDGET_SCHEDULER_SOCKET": socketPath, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TZ": "UTC",
         "NO_COLOR": "1"]
    }

    /// Starts `widgetctl ARGUMENTS` without waiting for it.
    public func startWidgetctl(_ arguments: [String], as user: User = .root) throws -> RunningCommand {
        try RunningCommand(widgetctlCommand(arguments, as: user), environment: clientEnvironment, scratch: root)
    }

    /// Starts another client of the daemon (an app) as `user`, in `widgetctl`'s environment plus `environment`.
    public func run(_ arguments: [String], as user: User = .root, environment: [String: String] = [:]) throws
        -> RunningCommand
    {
        try RunningCommand(command(arguments, as: user), environment: clientEnvironment.merging(environment) { $1 },
                           scratch: root)
    }

    /// Runs `widgetctl ARGUMENTS` to its end.
    public func widgetctl(_ arguments: String..., as user: User = .root) throws -> CommandResult {
        try startWidgetctl(arguments, as: user).wait()
    }

    /// Runs `widgetctl ARGUMENTS`, requiring exit status 0, and returns its result.
    public func widgetctlSucceeding(_ arguments: String..., as user: User = .root) throws -> CommandResult {
        let result = try startWidgetctl(arguments, as: user).wait()
        guard result.status == 0 else {
            // The daemon's side of the story: how it ended, if it did, and its last lines.
            let ended = daemon?.termination.map { "the daemon ended: \($0)\n" } ?? ""
            let tail = daemonLog.split(separator: "\n", omittingEmptySubsequences: false).suffix(40)
            throw TestFailure("expected success: \(result)\n\(ended)daemon log (last lines):\n"
                              + tail.joined(separator: "\n"))
        }
        return result
    }

    /// Starts a long-running `widgetctl ARGUMENTS` (`watch`) whose lines are read as they come; it is killed with
    /// the world. Its standard error is kept (`StreamingCommand.standardError`).
    public func streamWidgetctl(_ arguments: [String]) throws -> StreamingCommand {
        let errorURL = root.appendingPathComponent("\(UUID().uuidString).err")
        let stream = try StreamingCommand(widgetctlCommand(arguments, as: .root), environment: clientEnvironment,
                                          realTime: realTime, errorURL: errorURL)
        streams.append(stream)
        return stream
    }

    // MARK: - Common reads through widgetctl

    /// `widgetctl list --json`.
    public func list() throws -> [WidgetSummary] {
        try widgetctlSucceeding("list", "--json").decoded([WidgetSummary].self)
    }

    /// One widget of `widgetctl list --json`.
    public func summary(_ id: String) throws -> WidgetSummary {
        guard let widget = try list().first(where: { $0.id == id }) else {
            throw TestFailure("widget \(id) is not listed")
        }
        return widget
    }

    /// `widgetctl budget ID --json`.
    public func ledger(_ id: String) throws -> BudgetMethod.Ledger {
        guard let ledger = try widgetctlSucceeding("budget", id, "--json")
            .decoded([BudgetMethod.Ledger].self).first
        else { throw TestFailure("no ledger for \(id)") }
        return ledger
    }

    /// `widgetctl add --kind KIND [--param …]`, returning the new id.
    public func add(_ kind: String, _ parameters: String...) throws -> String {
        let result = try startWidgetctl(["add", "--kind", kind, "--json"] + parameters.flatMap { ["--param", $0] })
            .wait()
        guard result.status == 0, let id = try result.json().objectValue?["id"]?.stringValue else {
            throw TestFailure("add failed: \(result)")
        }
        return id
    }

    /// Waits until the daemon has written every change it holds (`Status`' `stateWritePending` is false): a kill -9
    /// from then on loses nothing that happened before the call. Idle is not stored: a run's result waits for the
    /// daemon's paced write (`WritePacer`) after the widget is idle.
    public func waitUntilStateWritten(timeout: Double = 10) throws {
        _ = try eventually("the daemon's paced state write", timeout: timeout) { () -> Bool? in
            try widgetctlSucceeding("status", "--json").decoded(StatusMethod.Reply.self).stateWritePending ? nil : true
        }
    }

    /// `bound` when the daemon runs under SCHED_FIFO as `realTime` asked, and so do the clients measuring with it
    /// (`refusals` of their own, `StreamingCommand.realTimeRefusals`); else `loose`, with a line in the output saying
    /// why. Without real-time priority every build and test beside this one competes with the daemon for two cores,
    /// and only a loose bound on its lateness holds.
    public func latenessBound(_ bound: Double, else loose: Double, refusals: [String] = [], in test: String) -> Double {
        let refused = [realTimeRefusal].compactMap { $0 } + refusals
        guard !refused.isEmpty else { return bound }
        print("\(test): SCHED_FIFO refused (\(refused.joined(separator: "; "))); lateness bound \(loose) s, not "
              + "\(bound) s")
        return loose
    }

    /// Waits until widget `id` has no run in flight and its last run ended with an outcome.
    @discardableResult
    public func waitUntilIdle(_ id: String, timeout: Double = 10) throws -> WidgetSummary {
        do {
            return try eventually("\(id) to finish its run", timeout: timeout) {
                let widget = try summary(id)
                return widget.state != "running" && widget.lastOutcome != nil ? widget : nil
            }
        } catch {
            let last = (try? summary(id)).map { "\($0)" } ?? "(no summary)"
            throw TestFailure("\(error)\nlast summary: \(last)\n--- daemon log ---\n\(daemonLog)")
        }
    }
}
