import CSystemd
import Glibc
import SystemdKit

/// Starts `/bin/sh -c script` with an empty signal mask and returns its pid.
// Not the test kit's `ChildProcess`: the event loop's child source under test reaps this child itself, where a
// `ChildProcess` owns the reaping (its deinit would wait for, and signal, a pid the loop has already reaped).
func spawnShell(_ script: String) throws -> pid_t {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var empty = sigset_t()
    sigemptyset(&empty)
    posix_spawnattr_setsigmask(&attributes, &empty)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
    var pid: pid_t = 0
    let arguments = ["/bin/sh", "-c", script]
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    let result = posix_spawn(&pid, "/bin/sh", nil, &attributes, &argv, environ)
    if result != 0 {
        throw SystemdError("posix_spawn", code: result, detail: script)
    }
    return pid
}

/// pidfd_open(2) for a child of this process.
func csystemdPidfdOpen(_ pid: pid_t) -> Int32 {
    csystemd_pidfd_open(pid)
}
