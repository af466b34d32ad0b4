/// How far a run's wake-up may be delayed so that runs due close together share one (`coalesce-window`).
///
/// Monotonic time is cut into slots of `seconds`; a run due inside a slot wakes the daemon at the slot's end, never
/// before it is due and at most `seconds` after. Runs due in one slot therefore share one wake-up, in the simulation
/// and in the daemon alike. Entry changes are not delayed: hosts see an entry at its date. A window of 0 wakes for
/// each run at its due time.
public struct CoalesceWindow: Sendable, Hashable {
    public var seconds: Double
    /// Clock readings this close are the same instant (the scheduler's tolerance).
    let tolerance: Double

    public init(seconds: Double, tolerance: Double = 1e-6) {
        self.seconds = seconds.isFinite ? max(0, seconds) : 0
        self.tolerance = tolerance
    }

    /// The wake-up that serves a run due at `due`: the end of its slot, or `due` itself without a window.
    public func wakeup(forDue due: Double) -> Double {
        guard seconds > 0 else { return due }
        let end = ((due - tolerance) / seconds).rounded(.up) * seconds
        return Swift.max(due, end)
    }

    /// The latest due time a wake-up at `now` serves: the end of the slot `now` lies in, so a wake-up that comes
    /// late (sd-event may move it, within the window) still serves only the slots that have ended.
    public func servedThrough(_ now: Double) -> Double {
        guard seconds > 0 else { return now + tolerance }
        return ((now + tolerance) / seconds).rounded(.down) * seconds + tolerance
    }
}
