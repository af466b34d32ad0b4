/// When the scheduler next needs the caller, on the monotonic clock.
public struct Wakeup: Sendable, Hashable {
    /// The instant the simulation wakes, and the earliest the daemon's timer may fire.
    public var at: Double
    /// How many seconds after `at` the wake-up may still come: 0 when an entry change is due, otherwise what the
    /// coalesce window leaves of the runs it serves.
    public var accuracy: Double

    public init(at: Double, accuracy: Double) {
        self.at = at
        self.accuracy = accuracy
    }
}
