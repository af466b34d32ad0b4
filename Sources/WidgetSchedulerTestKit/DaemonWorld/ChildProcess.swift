import CSpawn
import Foundation
import Glibc

/// A child process started with `posix_spawn`, its standard streams given as descriptors. Foundation's `Process`
/// is not used: tests run in parallel, and its spawning races with descriptors that other threads open and close
/// (seen as EBADF from `run()` and as lost output). Every descriptor the tests open is close-on-exec, so a child
/// inherits exactly its three streams.
public final class ChildProcess: @unchecked Sendable {
    /// How the child ended.
    public enum Termination: Equatable, Sendable {
        case exited(Int32)
        case signalled(Int32)
    }

    public let pid: pid_t
    private let lock = NSLock()
    private var ended: Termination?

    /// Starts `arguments[0]` (a path, or a name looked up in `PATH`) with `environment`; the descriptors become its
    /// stdin, stdout and stderr. The caller keeps ownership of the descriptors.
    public init(_ arguments: [String], environment: [String: String], input: Int32, output: Int32, error: Int32)
        throws
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, error, 2)
        // Nothing else of the test process, which runs other tests in parallel: a daemon must not keep their
        // descriptors for its whole life.
        cspawn_file_actions_addclosefrom(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The test process may block or ignore signals (SIGPIPE); the child must start with the defaults.
        var defaults = sigset_t()
        sigfillset(&defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var child: pid_t = 0
        let result = posix_spawnp(&child, arguments[0], &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw TestFailure("cannot start \(arguments[0]): \(String(cString: strerror(result)))")
        }
        pid = child
    }

    deinit {
        if termination == nil {
            kill(pid, SIGKILL)
            _ = waitForExit(timeout: 5)
        }
    }

    /// How the child ended, or nil while it runs (reaps it once it has ended).
    public var termination: Termination? {
        lock.lock()
        defer { lock.unlock() }
        if let ended { return ended }
        var status: Int32 = 0
        let reaped = waitpid(pid, &status, WNOHANG)
        guard reaped == pid else { return nil }
        ended = status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signalled(status & 0x7F)
        return ended
    }

    public var isRunning: Bool { termination == nil }

    /// The exit status, or 128 + the signal for a child killed by one (as a shell says it).
    public var exitStatus: Int32? {
        switch termination {
        case .exited(let status)?: return status
        case .signalled(let signal)?: return 128 + signal
        case nil: return nil
        }
    }

    /// Sends `signal` to the child if it still runs.
    public func signal(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// Waits up to `timeout` seconds for the end; returns how it ended, or nil if it still runs.
    @discardableResult
    public func waitForExit(timeout: Double) -> Termination? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let termination { return termination }
            guard Date() < deadline else { return nil }
            usleep(2_000)
        }
    }

    /// Puts the child under SCHED_FIFO priority 1, its own children reset to the normal policy, so that a
    /// measurement of lateness is not a measurement of the other tests running in parallel. Returns why the kernel
    /// refused (no CAP_SYS_NICE, an RLIMIT_RTPRIO of 0, a cgroup without real-time runtime), or nil: a test whose
    /// bound holds only under SCHED_FIFO must then loosen it, and say so.
    public func makeRealTime() -> String? {
        let resetOnFork: Int32 = 0x4000_0000
        var parameter = sched_param(sched_priority: 1)
        guard sched_setscheduler(pid, SCHED_FIFO | resetOnFork, &parameter) == 0 else {
            return "sched_setscheduler(SCHED_FIFO): \(String(cString: strerror(errno)))"
        }
        return nil
    }

    /// `makeRealTime()` for the calling thread of the test process.
    public static func makeCurrentThreadRealTime() -> String? {
        var parameter = sched_param(sched_priority: 1)
        let status = pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameter)
        return status == 0 ? nil : "pthread_setschedparam(SCHED_FIFO): \(String(cString: strerror(status)))"
    }

    /// Runs `arguments` to its end, standard input from /dev/null, and returns its exit status (128 + the signal for
    /// one a signal killed, as a shell says it) and its standard output and error together, in the order written.
    public static func run(_ arguments: [String], environment: [String: String]) throws
        -> (status: Int32, output: String)
    {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("widget-run-\(UUID().uuidString).out")
            .path
        defer { unlink(path) }
        let input = try Descriptor.null()
        defer { close(input) }
        let output = try Descriptor.openForWriting(path)
        defer { close(output) }
        let process = try ChildProcess(arguments, environment: environment, input: input, output: output,
                                       error: output)
        while process.waitForExit(timeout: 3_600) == nil {}
        return (process.exitStatus ?? -1, (try? String(contentsOfFile: path, encoding: .utf8)) ?? "")
    }

    /// Runs `arguments` to its end with `input` on its standard input and its standard error discarded; returns its
    /// exit status (as `run` gives it) and its standard output alone. Both go through files, so neither side can
    /// block the other however much it writes.
    public static func capture(_ arguments: [String], environment: [String: String], input: [UInt8] = []) throws
        -> (status: Int32, output: [UInt8])
    {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("widget-run-\(UUID().uuidString)")
            .path
        let inputPath = base + ".in", outputPath = base + ".out"
        defer {
            unlink(inputPath)
            unlink(outputPath)
        }
        guard FileManager.default.createFile(atPath: inputPath, contents: Data(input)) else {
            throw TestFailure("cannot write \(inputPath)")
        }
        let inputFD = try Descriptor.openForReading(inputPath)
        defer { close(inputFD) }
        let outputFD = try Descriptor.openForWriting(outputPath)
        defer { close(outputFD) }
        let errorFD = try Descriptor.openForWriting("/dev/null", append: true)
        defer { close(errorFD) }
        let process = try ChildProcess(arguments, environment: environment, input: inputFD, output: outputFD,
                                       error: errorFD)
        while process.waitForExit(timeout: 3_600) == nil {}
        let output = FileManager.default.contents(atPath: outputPath).map { [UInt8]($0) } ?? []
        return (process.exitStatus ?? -1, output)
    }

    /// A child that sleeps until it is killed, its streams on /dev/null: a live process that is no one's ancestor
    /// and no one's child but the test's.
    public static func idle() throws -> ChildProcess {
        let null = try Descriptor.null()
        defer { close(null) }
        return try ChildProcess(["/bin/sleep", "3600"], environment: [:], input: null, output: null, error: null)
    }

    /// Kills the child with SIGKILL and waits for it.
    public func killAndWait() {
        signal(SIGKILL)
        while waitForExit(timeout: 5) == nil { kill(pid, SIGKILL) }
    }
}

/// Close-on-exec descriptors for the children's streams.
public enum Descriptor {
    /// Opens `path` for writing (created, truncated or appended), close-on-exec.
    public static func openForWriting(_ path: String, append: Bool = false) throws -> Int32 {
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC), 0o644)
        guard fd >= 0 else { throw TestFailure("cannot open \(path): errno \(errno)") }
        return fd
    }

    /// Opens `path` for reading, close-on-exec.
    public static func openForReading(_ path: String) throws -> Int32 {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw TestFailure("cannot open \(path): errno \(errno)") }
        return fd
    }

    /// `/dev/null` for reading, close-on-exec.
    public static func null() throws -> Int32 {
        try openForReading("/dev/null")
    }

    /// A close-on-exec stream pair, used as a pipe: (read end, write end). A socket pair is made close-on-exec
    /// atomically, where `pipe` + `fcntl` would leave a window for another thread's child to inherit it.
    public static func pipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            throw TestFailure("socketpair: errno \(errno)")
        }
        shutdown(ends[0], Int32(SHUT_WR))
        shutdown(ends[1], Int32(SHUT_RD))
        return (ends[0], ends[1])
    }
}
