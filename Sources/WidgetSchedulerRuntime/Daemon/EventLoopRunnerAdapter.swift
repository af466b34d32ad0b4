import Glibc
import SystemdKit
import WidgetProviders
import WidgetSchedulerCore

/// Drives the provider runner from the daemon's sd-event loop.
final class EventLoopRunnerAdapter: RunnerEventLoop {
    private let loop: EventLoop

    init(loop: EventLoop) {
        self.loop = loop
    }

    func watchReadable(fd: Int32, _ handler: @escaping () -> Void) throws -> RunnerEventToken {
        SourceToken(try loop.addIO(fd: fd, events: .readable) { _ in handler() })
    }

    func watchExit(pidfd: Int32, _ handler: @escaping () -> Void) throws -> RunnerEventToken {
        // The runner reaps the child itself (waitid on the pidfd), so watch the pidfd as plain I/O: it becomes
        // readable when the process exits, and sd-event does not reap it behind the runner's back.
        var fired = false
        var token: SourceToken?
        let source = try loop.addIO(fd: pidfd, events: .readable) { _ in
            guard !fired else { return }
            fired = true
            token?.cancel()
            handler()
        }
        token = SourceToken(source)
        return token!
    }

    func schedule(after seconds: Double, _ handler: @escaping () -> Void) throws -> RunnerEventToken {
        let delay = UInt64(saturating: max(0, seconds) * 1_000_000)
        return SourceToken(try loop.addTimer(clock: .monotonic, after: delay, accuracy: 1_000, handler))
    }

    private final class SourceToken: RunnerEventToken {
        private var source: EventSource?
        init(_ source: EventSource) { self.source = source }
        func cancel() {
            source?.cancel()
            source = nil
        }
    }
}
