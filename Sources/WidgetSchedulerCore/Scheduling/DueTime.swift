import Foundation

/// When a pending run is due: on the monotonic clock, or at a wall-clock date (policy dates follow wall-clock jumps).
public enum DueTime: Sendable, Hashable, Codable {
    case monotonic(Double)
    case wall(Date)

    /// The monotonic instant this is due, read through the wall-clock offset of `now`.
    public func resolved(at now: Instant) -> Double {
        switch self {
        case .monotonic(let seconds): return seconds
        case .wall(let date): return now.monotonic(at: date)
        }
    }

    /// The due time a successful timeline asks for, for a run that started at `runStart`:
    /// `atEnd` → the latest entry date, or the run's start if there are no entries;
    /// `after(d)` → d, or the run's start if d is earlier; `never` → nil.
    public static func after(success timeline: TimelineOutline, runStart: Instant) -> DueTime? {
        switch timeline.policy {
        case .never:
            return nil
        case .atEnd:
            guard let last = timeline.dates.last, last > runStart.wall else {
                return .monotonic(runStart.monotonic)
            }
            return .wall(last)
        case .after(let date):
            return date > runStart.wall ? .wall(date) : .monotonic(runStart.monotonic)
        }
    }
}
