import CSpawn
#if canImport(Glibc)
import Glibc
#endif

/// Starts providers that can write only beneath a few paths, with Landlock, from a thread of its own.
///
/// A provider runs as the daemon's user in the daemon's mount namespace, so no unit setting can keep it out of the
/// state directory the daemon itself must write. Landlock can: it restricts a thread and everything that thread starts
/// afterwards, so the sandbox's thread restricts itself once (write-type rights granted only beneath
/// `writablePaths`; reading and executing untouched) and then makes every `posix_spawn` call of its runner. The
/// daemon's own thread stays unrestricted. Each spawn costs one hand-over to that thread and back
/// (docs/benchmarks.md).
///
/// The thread also sets no_new_privs, which Landlock requires and the children inherit.
public final class ProviderSandbox {
    /// Where providers may write by default: their private /tmp and /var/tmp (`PrivateTmp=` under the unit) and
    /// /dev (for /dev/null and terminals).
    public static let defaultWritablePaths = ["/tmp", "/var/tmp", "/dev"]

    /// Why a sandbox could not be made: the step that failed and its errno.
    public struct Unavailable: Error, Equatable, CustomStringConvertible {
        public var step: String
        public var errno: Int32

        public var description: String {
            let reason: String
            switch errno {
            case ENOSYS: reason = "the kernel has no Landlock"
            case EOPNOTSUPP: reason = "Landlock is disabled on this kernel (add landlock to lsm= on its command line)"
            case EPERM: reason = "refused (a seccomp filter without the landlock_* system calls?)"
            default: reason = String(cString: strerror(errno))
            }
            return "\(step): \(reason)"
        }
    }

    /// The paths beneath which providers may write.
    public let writablePaths: [String]
    /// The kernel's Landlock ABI version the rules were made with.
    public let abi: Int
    private let handle: OpaquePointer

    /// Starts the sandbox thread, restricted to writing beneath `writablePaths` (those that do not exist are skipped).
    public init(writablePaths: [String] = ProviderSandbox.defaultWritablePaths) throws(Unavailable) {
        var step: UnsafePointer<CChar>?
        let paths = writablePaths.map { strdup($0) }
        defer { paths.forEach { free($0) } }
        let made = paths.map { UnsafePointer($0) }.withUnsafeBufferPointer {
            cspawn_sandbox_start($0.baseAddress, $0.count, &step)
        }
        guard let made else {
            throw Unavailable(step: step.map { String(cString: $0) } ?? "cspawn_sandbox_start", errno: errno)
        }
        handle = made
        abi = Int(cspawn_sandbox_abi(made))
        self.writablePaths = writablePaths
    }

    deinit {
        cspawn_sandbox_stop(handle)
    }

    /// `posix_spawn` on the sandbox's thread; returns its result (0 or an error number).
    func spawn(
        _ pid: inout pid_t, path: String, actions: inout posix_spawn_file_actions_t,
        attributes: inout posix_spawnattr_t, arguments: [UnsafeMutablePointer<CChar>?],
        variables: [UnsafeMutablePointer<CChar>?]
    ) -> Int32 {
        cspawn_sandbox_spawn(handle, &pid, path, &actions, &attributes, arguments, variables)
    }
}
