import Glibc

/// The clocks an `EventLoop` timer can be set on.
public enum EventClock: Sendable, CaseIterable {
    /// Time since boot, stopped during suspend. Use it for intervals.
    case monotonic
    /// Time since boot, including suspend.
    case boottime
    /// Wall-clock time; it may jump when the clock is set.
    case realtime

    /// The kernel clock id.
    public var clockID: clockid_t {
        switch self {
        case .monotonic: return CLOCK_MONOTONIC
        case .boottime: return CLOCK_BOOTTIME
        case .realtime: return CLOCK_REALTIME
        }
    }

    /// The clock's current value in microseconds, read directly from the kernel.
    public var currentMicroseconds: UInt64 {
        var spec = timespec()
        clock_gettime(clockID, &spec)
        return UInt64(spec.tv_sec) * 1_000_000 + UInt64(spec.tv_nsec) / 1_000
    }
}
