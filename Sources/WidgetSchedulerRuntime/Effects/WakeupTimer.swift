/// The daemon's one timer: armed for the scheduler's next deadline, on the same monotonic clock as `DaemonClock`.
public protocol WakeupTimer: AnyObject {
    /// Arms the timer for monotonic second `at` (nil disarms it), letting it fire up to `accuracy` seconds late so
    /// the kernel can coalesce wake-ups.
    func arm(at: Double?, accuracy: Double)
}
