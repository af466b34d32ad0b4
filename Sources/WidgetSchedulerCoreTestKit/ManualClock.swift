import Foundation
import WidgetSchedulerCore

/// A clock that moves only when told: both the monotonic and the wall reading, or the wall reading alone (a jump).
public struct ManualClock: Sendable {
    public private(set) var now: Instant

    /// Starts at monotonic 0 and the given wall-clock date (default 2026-01-05T08:00:00Z).
    public init(wall: Date = Date(timeIntervalSince1970: 1_767_600_000)) {
        self.now = Instant(monotonic: 0, wall: wall)
    }

    /// Moves both clocks forward by `seconds` and returns the new instant.
    @discardableResult
    public mutating func advance(by seconds: Double) -> Instant {
        now = now.advanced(by: seconds)
        return now
    }

    /// Moves both clocks to monotonic `seconds` (never backwards) and returns the new instant.
    @discardableResult
    public mutating func advance(to seconds: Double) -> Instant {
        advance(by: max(0, seconds - now.monotonic))
    }

    /// Moves the wall clock alone by `seconds` (±), as settimeofday or a suspend would.
    @discardableResult
    public mutating func jumpWall(by seconds: Double) -> Instant {
        now = Instant(monotonic: now.monotonic, wall: now.wall.addingTimeInterval(seconds))
        return now
    }
}
