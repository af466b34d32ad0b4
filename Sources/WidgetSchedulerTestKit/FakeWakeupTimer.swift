import WidgetSchedulerRuntime

/// A `WakeupTimer` that only remembers what it was armed for.
public final class FakeWakeupTimer: WakeupTimer {
    /// The monotonic second it is armed for; nil when disarmed.
    public private(set) var armedAt: Double?
    /// How late it was allowed to fire, in seconds.
    public private(set) var accuracy: Double = 0
    /// How many times it was armed or disarmed.
    public private(set) var armCount = 0

    public init() {}

    public func arm(at: Double?, accuracy: Double) {
        armedAt = at
        self.accuracy = accuracy
        armCount += 1
    }
}
