import SystemdKit
import WidgetSchedulerCore

/// The daemon's one wake-up timer, an sd-event CLOCK_BOOTTIME source re-armed for the scheduler's next deadline.
final class EventLoopWakeupTimer: WakeupTimer {
    private let source: EventSource

    init(loop: EventLoop, handler: @escaping () -> Void) throws {
        source = try loop.addTimer(clock: .boottime, at: UInt64.max, accuracy: 1, handler)
        try source.setEnabled(.off)
    }

    func arm(at: Double?, accuracy: Double) {
        guard let at else {
            try? source.setEnabled(.off)
            return
        }
        let usec = Self.microseconds(at)
        // sd-event reads an accuracy of 0 as its default of 250 ms: 1 µs is its "exactly".
        try? source.setAccuracy(max(1, Self.microseconds(accuracy)))
        try? source.schedule(at: usec)
    }

    /// Seconds as microseconds, without trapping: NaN and negatives are 0, and anything past about 292 000 years
    /// is that.
    static func microseconds(_ seconds: Double) -> UInt64 {
        guard seconds > 0 else { return 0 }
        let usec = seconds * 1_000_000
        return usec < 9.2e18 ? UInt64(usec) : 9_200_000_000_000_000_000
    }
}
