import WidgetSchedulerCore
import WidgetSchedulerRuntime

/// A `DaemonClock` that reads a `ManualClock` the test moves.
public final class ManualDaemonClock: DaemonClock {
    public var clock: ManualClock

    public init(_ clock: ManualClock = ManualClock()) {
        self.clock = clock
    }

    public func now() -> Instant { clock.now }
}
