import Foundation

/// One reading of both clocks the scheduler needs, taken by the caller and passed in.
///
/// The budget, the floor and backoff run on `monotonic` seconds, which never jump. Entry dates and `after` dates are
/// wall-clock `Date`s. The difference between the two is the wall-clock offset; when it changes between two
/// instants, the wall clock jumped and wall-clock deadlines are recomputed.
public struct Instant: Sendable, Hashable, CustomStringConvertible {
    /// Seconds on a clock that never jumps (CLOCK_MONOTONIC or CLOCK_BOOTTIME, or simulated).
    public var monotonic: Double
    /// The wall clock at the same moment.
    public var wall: Date

    public init(monotonic: Double, wall: Date) {
        self.monotonic = monotonic
        self.wall = wall
    }

    /// Wall-clock seconds since 1970 minus monotonic seconds: constant while the wall clock does not jump.
    public var wallOffset: Double { wall.timeIntervalSince1970 - monotonic }

    /// The monotonic instant at which the wall clock will read `date`, if it does not jump before.
    public func monotonic(at date: Date) -> Double { date.timeIntervalSince1970 - wallOffset }

    /// The wall-clock date at monotonic `seconds`, if the wall clock does not jump before.
    public func wall(atMonotonic seconds: Double) -> Date { Date(timeIntervalSince1970: seconds + wallOffset) }

    /// This instant moved forward by `seconds` on both clocks.
    public func advanced(by seconds: Double) -> Instant {
        Instant(monotonic: monotonic + seconds, wall: wall.addingTimeInterval(seconds))
    }

    public var description: String { "t=\(monotonic) (\(wall))" }
}
