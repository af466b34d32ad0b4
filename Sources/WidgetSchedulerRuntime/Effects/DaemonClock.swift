import WidgetSchedulerCore

/// Where the daemon reads `now`. The core never reads a clock; the daemon reads this once per event.
public protocol DaemonClock: AnyObject {
    /// Both clocks, read together.
    func now() -> Instant
}
