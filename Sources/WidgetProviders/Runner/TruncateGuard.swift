import CSpawn
#if canImport(Glibc)
import Glibc
#endif

/// What keeps a sandbox's providers from truncating files they may not write.
///
/// Landlock's write right refuses every open for writing outside the writable paths, but not truncation without one:
/// `truncate(2)` by path, or an open with `O_TRUNC` whose access mode is not a write (Linux truncates on
/// `O_RDONLY | O_TRUNC`). Landlock's TRUNCATE right covers both from ABI 3 (Linux 6.2); on older kernels, such as
/// Debian 12's 6.1, a seccomp filter refuses exactly those calls instead.
public enum TruncateGuard: Sendable, Equatable, CustomStringConvertible {
    /// Landlock's TRUNCATE right: a Landlock ABI of 3 or more.
    case landlockRight
    /// A seccomp filter, where Landlock has no TRUNCATE right: `truncate(2)` and opens that truncate without writing
    /// fail with EACCES (even beneath the writable paths: `ftruncate` on a file opened for writing there still
    /// works); `openat2` and `io_uring_setup` fail with ENOSYS, as on a kernel without them, since the filter cannot
    /// see what they open.
    case seccompFilter
    /// Nothing: a Landlock ABI older than 3, and no seccomp filter (the kernel has none, or a filter refused it).
    case none

    init(_ guard: cspawn_truncate_guard) {
        switch `guard` {
        case CSPAWN_TRUNCATE_GUARD_SECCOMP: self = .seccompFilter
        case CSPAWN_TRUNCATE_GUARD_LANDLOCK: self = .landlockRight
        default: self = .none
        }
    }

    /// What providers can do that they should not, and why, when nothing guards against truncation: the warning the
    /// daemon logs at start. `filterErrno` is why the seccomp filter could not be installed
    /// (`ProviderSandbox.filterErrno`). nil for a guard in force.
    public func problem(filterErrno: Int32) -> String? {
        guard self == .none else { return nil }
        let hint = filterErrno == EPERM ? "; does the unit's SystemCallFilter= allow seccomp?" : ""
        return "providers can truncate files they may read, the state database included: Landlock before ABI 3 "
            + "cannot refuse it, and the seccomp filter that would could not be installed (seccomp: "
            + "\(String(cString: strerror(filterErrno)))\(hint))"
    }

    public var description: String {
        switch self {
        case .seccompFilter: "truncation refused by a seccomp filter"
        case .landlockRight: "truncation refused by Landlock"
        case .none: "truncation by path not refused (Landlock ABI < 3, no seccomp filter)"
        }
    }
}
