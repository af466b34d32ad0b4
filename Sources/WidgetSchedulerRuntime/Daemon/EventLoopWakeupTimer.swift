import SystemdKit

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
        let usec = UInt64(max(0, at) * 1_000_000)
        try? source.setAccuracy(max(1, UInt64(accuracy * 1_000_000)))
        try? source.schedule(at: usec)
    }
}
