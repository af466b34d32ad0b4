import CSpawn
import Foundation
import Glibc
import WidgetProtocol
import WidgetSchedulerTestKit

/// One test's world: a private temporary directory (world-traversable, so `nobody` can reach the socket), a
/// configuration file, a providers directory, and the real `widget-scheduler` on them, logging to a file in the
/// `LEVEL message KEY=value` form, with the test-only fault switches on. The daemon is killed when the world goes.
final class ReliabilityWorld {
    let root: URL
    let stateDirectory: URL
    let runtimeDirectory: URL
    let providersDirectory: URL
    let configURL: URL
    let logURL: URL
    var socketPath: String { runtimeDirectory.appendingPathComponent("control.socket").path }
    private(set) var daemonPID: pid_t = 0

    /// Creates the directories and writes `config` as the configuration file. Nothing runs until `start()`.
    init(config: String) throws {
        var template = Array("/tmp/widget-faults-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw ReliabilityFailure("mkdtemp: errno \(errno)") }
        root = URL(fileURLWithPath: String(cString: made), isDirectory: true)
        chmod(root.path, 0o755)
        stateDirectory = root.appendingPathComponent("state")
        runtimeDirectory = root.appendingPathComponent("run")
        providersDirectory = root.appendingPathComponent("providers")
        configURL = root.appendingPathComponent("widget-scheduler.toml")
        logURL = root.appendingPathComponent("daemon.log")
        try FileManager.default.createDirectory(at: providersDirectory, withIntermediateDirectories: true)
        chmod(providersDirectory.path, 0o777)
        try config.write(to: configURL, atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
    }

    deinit {
        kill(signal: SIGKILL)
        ProviderProcesses.killAll(under: providersDirectory.path)
        if ProcessInfo.processInfo.environment["WIDGET_FAULTS_KEEP"] == nil {
            try? FileManager.default.removeItem(at: root)
        }
    }

    /// Writes a file into the providers directory.
    func writeProvider(_ text: String, to name: String, executable: Bool = false) throws {
        // Never left open for writing in a child of another test: the daemon's exec of a script would fail (ETXTBSY).
        try CloseOnExecFile.write(text, to: providersDirectory.appendingPathComponent(name).path,
                                  mode: executable ? 0o755 : 0o644)
    }

    /// Writes `<kind>.sh` and a manifest `<kind>.toml` serving `kind` with it.
    func addKind(_ kind: String, script: String, timeout: Double = 5, memoryMax: String = "64M",
                 manifestExtra: String = "", widgetExtra: String = "") throws {
        try writeProvider(script, to: "\(kind).sh", executable: true)
        try writeProvider("""
            exec = "./\(kind).sh"
            timeout = \(timeout)
            memory-max = "\(memoryMax)"
            \(manifestExtra)

            [[widget]]
            kind = "\(kind)"
            \(widgetExtra)
            """, to: "\(kind).toml")
    }

    // MARK: - The daemon

    /// Starts `widget-scheduler` (via `prefix`, e.g. `prlimit`, with `extraEnvironment` and `extraArguments` added)
    /// and waits until its socket answers a call.
    func start(prefix: [String] = [], logLevel: String = "debug", extraEnvironment: [String: String] = [:],
               extraArguments: [String] = []) throws {
        let (arguments, environment) = try daemonInvocation(prefix: prefix, logLevel: logLevel,
                                                             extraEnvironment: extraEnvironment,
                                                             extraArguments: extraArguments)
        daemonPID = try Self.spawn(arguments, environment: environment, output: logURL.path)
        _ = try eventually("the daemon's socket \(socketPath); log:\n\(log.suffix(2000))") { () -> Bool? in
            guard isRunning else { throw ReliabilityFailure("the daemon exited; log:\n\(log.suffix(4000))") }
            guard let connection = try? RawVarlinkConnection(path: socketPath) else { return nil }
            return (try? connection.call(Method.status, timeout: 5)) != nil ? true : nil
        }
    }

    /// The daemon's command line and environment for this world, as `start` runs it.
    func daemonInvocation(
        prefix: [String] = [], logLevel: String = "debug", extraEnvironment: [String: String] = [:],
        extraArguments: [String] = []
    ) throws -> (arguments: [String], environment: [String: String]) {
        let executable = try DaemonExecutables.path("widget-scheduler")
        let arguments = prefix + [
            executable, "--config", configURL.path, "--state-dir", stateDirectory.path,
            "--runtime-dir", runtimeDirectory.path, "--providers-dir", providersDirectory.path, "--log-level", logLevel,
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

    /// True while the daemon process exists and has not exited (zombies are reaped here).
    var isRunning: Bool {
        guard daemonPID > 0 else { return false }
        var status: Int32 = 0
        let reaped = waitpid(daemonPID, &status, WNOHANG)
        if reaped == daemonPID {
            daemonPID = 0
            return false
        }
        return reaped == 0
    }

    /// Sends `signal` to the daemon; SIGKILL also waits for it to be gone.
    func kill(signal: Int32) {
        guard daemonPID > 0 else { return }
        Glibc.kill(daemonPID, signal)
        if signal == SIGKILL {
            var status: Int32 = 0
            while waitpid(daemonPID, &status, 0) < 0 && errno == EINTR {}
            daemonPID = 0
        }
    }

    /// Sets the daemon's test clock offset (seconds added to its wall clock) and tells it with SIGUSR2.
    func setWallClockOffset(_ seconds: Double) throws {
        try "\(seconds)\n".write(to: runtimeDirectory.appendingPathComponent("test-clock-offset"), atomically: true,
                                  encoding: .utf8)
        kill(signal: SIGUSR2)
    }

    /// What the daemon wrote so far.
    var log: String {
        (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
    }

    /// The daemon's log lines so far.
    var logLines: [DaemonLogLine] {
        DaemonLogLine.parse(log)
    }

    // MARK: - Calls

    /// A fresh connection for one call.
    func connect() throws -> RawVarlinkConnection {
        try RawVarlinkConnection(path: socketPath)
    }

    /// `List`, decoded.
    func list() throws -> [WidgetSummary] {
        try VarlinkCoding.decode(ListMethod.Reply.self, from: try connect().call(Method.list)).widgets
    }

    /// `Add` of `kind` with `parameters`; the new id.
    func add(_ kind: String, parameters: [String: JSONValue] = [:]) throws -> String {
        let reply = try connect().call(Method.add, ["kind": .string(kind), "parameters": .object(parameters)])
        guard let id = reply["id"]?.stringValue else { throw ReliabilityFailure("Add gave no id: \(reply)") }
        return id
    }

    // MARK: - Processes

    /// posix_spawn of `arguments` with stdout and stderr appended to `output` and stdin from /dev/null. The child
    /// is reaped by `kill(signal:)` or `isRunning`.
    static func spawn(_ arguments: [String], environment: [String: String], output: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_APPEND | O_CREAT, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Nothing else of the test process: a daemon that kept another test's descriptor (a provider script being
        // written, say) would keep it for its whole life.
        cspawn_file_actions_addclosefrom(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The test process may block or ignore signals (SIGPIPE); the daemon must start with the defaults.
        var all = sigset_t()
        sigfillset(&all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw ReliabilityFailure("posix_spawn \(arguments[0]): \(String(cString: strerror(result)))")
        }
        return pid
    }

    /// Runs `arguments` to its end and returns its exit status and combined output.
    static func run(_ arguments: [String], environment: [String: String]) throws -> (status: Int32, output: String) {
        let output = FileManager.default.temporaryDirectory
            .appendingPathComponent("widget-faults-\(UUID().uuidString).out").path
        defer { unlink(output) }
        let pid = try spawn(arguments, environment: environment, output: output)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        let exited = status & 0x7f == 0
        return (exited ? (status >> 8) & 0xff : 128 + (status & 0x7f), text)
    }
}
