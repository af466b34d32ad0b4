import WidgetSchedulerCore
import WidgetSchedulerRuntime

/// A `DaemonClock` that reads a `ManualClock` the test moves.
public final class ManualDaemonClock: DaemonClock {
    public var clock: ManualClock
    /// The boot the clock counts from; a test that simulates a reboot gives the next service another one.
    public var bootID: String

    public init(_ clock: ManualClock = ManualClock(), bootID: String = "manual-boot") {
        self.clock = clock
        self.bootID = bootID
    }

    public func now() -> Instant { clock.now }
}
