import NIOCore
import NIOPosix

/// Waiting in a task without libdispatch. `Task.sleep` hands the task to libdispatch's timers, and the first
/// libdispatch worker thread arms libdispatch's workqueue monitor, a timer that wakes the process every second for
/// the rest of its life; an event loop's scheduled task wakes once, at its time. Cancelling the waiting task ends the
/// wait at once with `CancellationError`.
public enum LoopSleep {
    /// The longest wait: a year, so that no outside number overflows the loop's nanoseconds.
    static let longest = 365.0 * 86_400

    public static func sleep(
        seconds: Double, on loop: any EventLoop = MultiThreadedEventLoopGroup.singleton.any()
    ) async throws {
        let clamped = seconds.isFinite ? min(max(seconds, 0), longest) : longest
        let scheduled = loop.scheduleTask(in: .nanoseconds(Int64(clamped * 1e9))) {}
        do {
            try await withTaskCancellationHandler {
                try await scheduled.futureResult.get()
            } onCancel: {
                scheduled.cancel()
            }
        } catch {
            throw CancellationError()
        }
    }
}
