import CSpawn
#if canImport(Glibc)
import Glibc
#endif

/// What keeps a sandbox's providers from signalling processes outside their own run: the daemon above all, whose
/// user they share, and the providers of other runs.
///
/// Landlock scopes signals from ABI 6 (Linux 6.12): every child is restricted into a Landlock domain of its own as it
/// starts, so it and what it starts may signal each other and nothing else (and may connect only to abstract Unix
/// sockets made inside the run). One domain for all children would not do: the sandbox's own thread is in the
/// domain it restricts itself with, and a signal to that thread's id is a signal to the daemon. On older kernels a
/// seccomp filter does what a filter can, which cannot tell which process a pid names: a provider may signal its own
/// process group (`kill(0, …)`) and nothing else.
public enum SignalGuard: Sendable, Equatable, CustomStringConvertible {
    /// Landlock's scope: each run is a domain of its own.
    case landlockScope
    /// The seccomp filter: `kill(0, sig)` only; `kill` of another pid, `tkill`, `tgkill`, the sigqueue calls and
    /// `setpgid` into another group fail with EPERM, `pidfd_send_signal` with ENOSYS, and a file cannot be made to
    /// send SIGIO or SIGURG (`F_SETOWN`, `F_SETSIG`, `FIOSETOWN`: EPERM). Abstract Unix sockets are not scoped.
    case seccompFilter
    /// Nothing: no Landlock scope, and the seccomp filter could not be installed.
    case none

    init(_ guard: cspawn_signal_guard) {
        switch `guard` {
        case CSPAWN_SIGNAL_GUARD_SECCOMP: self = .seccompFilter
        case CSPAWN_SIGNAL_GUARD_LANDLOCK: self = .landlockScope
        default: self = .none
        }
    }

    /// What providers can do that they should not when nothing guards their signals: the warning the daemon logs at
    /// start. `filterErrno` is why the seccomp filter could not be installed (`ProviderSandbox.filterErrno`). nil for a
    /// guard in force.
    public func problem(filterErrno: Int32) -> String? {
        guard self == .none else { return nil }
        let hint = filterErrno == EPERM ? "; does the unit's SystemCallFilter= allow seccomp?" : ""
        return "providers can signal the daemon and each other: Landlock before ABI 6 cannot scope signals, and the "
            + "seccomp filter that would confine them could not be installed (seccomp: "
            + "\(String(cString: strerror(filterErrno)))\(hint))"
    }

    public var description: String {
        switch self {
        case .landlockScope: "signals and abstract sockets scoped to each run by Landlock"
        case .seccompFilter: "signals confined to each provider's process group by a seccomp filter"
        case .none: "signals not confined (Landlock ABI < 6, no seccomp filter)"
        }
    }
}
