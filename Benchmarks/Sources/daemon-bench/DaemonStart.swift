import Foundation
import Glibc
import WidgetProtocol

/// Starts the daemon as systemd would see it start: with `NOTIFY_SOCKET` pointing at our own datagram socket, timed
/// from just before `posix_spawn` to the arrival of `READY=1`. The daemon keeps running in its own process group after
/// this returns; its stdout and stderr go to `--log`.
enum DaemonStart {
    static func run(_ arguments: [String]) throws {
        guard let separator = arguments.firstIndex(of: "--"), separator + 1 < arguments.count else {
            throw BenchError("usage: daemon-bench start --log FILE [--timeout S] -- DAEMON [ARGS...]")
        }
        let options = try BenchOptions(arguments[..<separator], accepting: ["log", "timeout"])
        let command = Array(arguments[(separator + 1)...])
        let log = try options.string("log")
        let timeout = try options.double("timeout", 60)

        let notifyPath = "/tmp/daemon-bench-notify-\(getpid())"
        unlink(notifyPath)
        let listener = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard listener >= 0 else { throw BenchError("socket: \(String(cString: strerror(errno)))") }
        defer {
            close(listener)
            unlink(notifyPath)
        }
        guard let address = UnixSocketAddress(path: notifyPath) else {
            throw BenchError("\(notifyPath): path too long")
        }
        guard address.bind(listener) == 0 else {
            throw BenchError("bind \(notifyPath): \(String(cString: strerror(errno)))")
        }

        var environment = ProcessInfo.processInfo.environment
        environment["NOTIFY_SOCKET"] = notifyPath
        environment["LOG_TARGET"] = environment["LOG_TARGET"] ?? "stderr"
        let logFD = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard logFD >= 0 else { throw BenchError("open \(log): \(String(cString: strerror(errno)))") }
        defer { close(logFD) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, logFD, 1)
        posix_spawn_file_actions_adddup2(&actions, logFD, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        // Its own process group, but the caller's session: a new session would get its own autogroup, and with it a
        // different share of the CPU than the C loop it is compared with.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        let argv = command.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        var pid: pid_t = 0
        let started = Clock.monotonic()
        let error = posix_spawn(&pid, command[0], &actions, &attributes, argv, envp)
        guard error == 0 else { throw BenchError("posix_spawn \(command[0]): \(String(cString: strerror(error)))") }

        var message = [UInt8](repeating: 0, count: 4096)
        while true {
            let left = timeout - (Clock.monotonic() - started)
            var descriptor = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard left > 0, poll(&descriptor, 1, Int32(left * 1000)) > 0 else {
                kill(pid, SIGTERM)
                throw BenchError("no READY=1 within \(timeout) s; see \(log)")
            }
            let count = message.withUnsafeMutableBytes { recv(listener, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { continue }
            let text = String(decoding: message[0..<count], as: UTF8.self)
            if text.split(separator: "\n").contains("READY=1") { break }
        }
        let ready = Clock.monotonic() - started
        let status = procStatus(pid)
        print(String(format: "pid=%d ready_seconds=%.3f vmrss_mb=%.1f vmhwm_mb=%.1f", pid, ready,
                     (status["VmRSS"] ?? 0) / 1024, (status["VmHWM"] ?? 0) / 1024))
    }
}
