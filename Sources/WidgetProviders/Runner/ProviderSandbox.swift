import CSpawn
#if canImport(Glibc)
import Glibc
#endif

/// Starts providers that can write only beneath a few paths, with Landlock, from a thread of its own.
///
/// A provider runs as the daemon's user in the daemon's mount namespace, so no unit setting can keep it out of the
/// state directory the daemon itself must write. Landlock can: it restricts a thread and everything that thread starts
/// afterwards, so the sandbox's thread restricts itself once (write-type rights granted only beneath `writablePaths`;
/// reading and executing untouched) and then makes every spawn of its runner (`cspawn_job_run`), queued: the runner's
/// loop goes on while a child execs, and learns of the finished spawn through an eventfd. The daemon's own thread stays
/// unrestricted. A sandbox serves one runner at a time.
///
/// The thread also sets no_new_privs, which Landlock and seccomp require and the children inherit, guards against
/// truncation (`TruncateGuard`), keeps providers from signalling anything outside their own run (`SignalGuard`), and
/// installs a seccomp filter that keeps what a provider starts inside its run's process tree and cgroup (no
/// `CLONE_PARENT`, no `clone3`; see `CSpawnFilter.h`).
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
    /// The directory beneath which each run may write its own directory alone (`ProcessSpec.writableDirectory`),
    /// if any: where the daemon makes its runs' image directories.
    public let runRoot: String?
    /// The kernel's Landlock ABI version the rules were made with.
    public let abi: Int
    /// What keeps providers from truncating files beyond the writable paths.
    public let truncateGuard: TruncateGuard
    /// What keeps providers from signalling processes outside their run.
    public let signalGuard: SignalGuard
    /// Why the seccomp filter could not be installed, or 0 if it was.
    public let filterErrno: Int32
    private let handle: OpaquePointer

    /// Which guards are the seccomp filter's even where Landlock has the right or the scope, as on an older kernel:
    /// for tests of the fallbacks, and for comparing costs.
    public struct SeccompPreference: OptionSet, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }
        /// Truncation, as where Landlock's ABI is older than 3.
        public static let truncation = SeccompPreference(rawValue: Int32(CSPAWN_SANDBOX_SECCOMP_TRUNCATE.rawValue))
        /// Signals, as where Landlock's ABI is older than 6.
        public static let signals = SeccompPreference(rawValue: Int32(CSPAWN_SANDBOX_SECCOMP_SIGNALS.rawValue))
    }

    /// Starts the sandbox thread, restricted to writing beneath `writablePaths` (those that do not exist are skipped).
    public convenience init(writablePaths: [String] = ProviderSandbox.defaultWritablePaths,
                            runRoot: String? = nil) throws(Unavailable) {
        try self.init(writablePaths: writablePaths, runRoot: runRoot, preferringSeccompFor: [])
    }

    /// The writable path that `runRoot` is, or lies beneath, if any (compared by path components, as given). Every
    /// run may write beneath it, whatever its own domain grants: there the runs are not kept out of each other's
    /// directories.
    public static func writablePath(containing runRoot: String, among writablePaths: [String]) -> String? {
        let root = runRoot.split(separator: "/")
        return writablePaths.first { path in
            let parts = path.split(separator: "/")
            return parts.count <= root.count && root.starts(with: parts)
        }
    }

    /// As `init(writablePaths:)`, with the seccomp filter for the guards in `preference` even where Landlock has
    /// the right or the scope. With a `runRoot` (an existing directory), each run may write beneath it only in its
    /// own `ProcessSpec.writableDirectory`, and only regular files there (`cspawn_sandbox_start`).
    public init(writablePaths: [String], runRoot: String? = nil,
                preferringSeccompFor preference: SeccompPreference) throws(Unavailable) {
        var step: UnsafePointer<CChar>?
        let paths = writablePaths.map { strdup($0) }
        let root = runRoot.flatMap { strdup($0) }
        defer {
            paths.forEach { free($0) }
            free(root)
        }
        let made = paths.map { UnsafePointer($0) }.withUnsafeBufferPointer {
            cspawn_sandbox_start($0.baseAddress, $0.count, root.map { UnsafePointer($0) }, preference.rawValue, &step)
        }
        guard let made else {
            throw Unavailable(step: step.map { String(cString: $0) } ?? "cspawn_sandbox_start", errno: errno)
        }
        handle = made
        abi = Int(cspawn_sandbox_abi(made))
        truncateGuard = TruncateGuard(cspawn_sandbox_truncate_guard(made))
        signalGuard = SignalGuard(cspawn_sandbox_signal_guard(made))
        filterErrno = cspawn_sandbox_filter_errno(made)
        self.writablePaths = writablePaths
        self.runRoot = runRoot
    }

    deinit {
        cspawn_sandbox_stop(handle)
    }

    /// The descriptor (an eventfd) that is readable while finished spawns wait in `takeFinished()`.
    var finishedSpawnsDescriptor: Int32 { cspawn_sandbox_event_fd(handle) }

    /// Queues a spawn on the sandbox's thread and returns at once; `spawn` must stay alive until it comes back
    /// from `takeFinished()`.
    func submit(_ spawn: QueuedSpawn) {
        cspawn_sandbox_submit(handle, spawn.job)
    }

    /// Asks for `spawn`, submitted and not yet taken back, to be counted on `finishedSpawnsDescriptor` once it is
    /// done (at once if it is), even if an exit poller will report its child.
    func requestReport(of spawn: QueuedSpawn) {
        cspawn_sandbox_request_report(handle, spawn.job)
    }

    /// Calls `body` with each job whose spawn is done, oldest first; `body` may free the job.
    func takeFinished(_ body: (UnsafeMutablePointer<cspawn_job>) -> Void) {
        var next = cspawn_sandbox_take_finished(handle)
        while let job = next {
            next = job.pointee.next
            body(job)
        }
    }
}
