import WidgetSchedulerCore

/// Where the daemon reads `now`. The core never reads a clock; the daemon reads this once per event.
public protocol DaemonClock: AnyObject {
    /// Both clocks, read together.
    func now() -> Instant
    /// The boot the monotonic clock counts from: equal across daemon restarts within one boot, new after a reboot.
    /// The state's clock stamp carries it, so a restart knows whether the monotonic instants it saved still hold.
    var bootID: String { get }
}
