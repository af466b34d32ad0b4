#if canImport(Glibc)
import Glibc
#endif

/// Seconds on CLOCK_MONOTONIC, the clock that timeouts and durations are measured on.
enum MonotonicClock {
    /// The current reading, in seconds since an arbitrary start.
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000
    }
}
