import Foundation
import WidgetControlClient
import WidgetProtocol

/// The daemon's `Watch` stream as an ordered sequence of messages: a dedicated thread holds the blocking stream and
/// yields what it reads. When the stream ends or fails it says so and connects again, waiting longer each time (up
/// to `maximumRetryDelay`); with socket activation the connection itself starts a stopped daemon.
public final class WatchFeed: Sendable {
    /// What the feed tells the host, in order.
    public enum Message: Sendable {
        /// Connected, and the stream is open: what the host knows may be stale, read it again.
        case connected
        /// Events in the daemon's order: those that arrived together (a burst, several widgets' entries changing at
        /// one instant), so the host draws and sends them as one change.
        case events([WatchEvent])
        /// The stream ended (the daemon stopped) or could not be opened, in words.
        case disconnected(String)
    }

    public let messages: AsyncStream<Message>
    private let continuation: AsyncStream<Message>.Continuation
    private let socketPath: String
    /// The first wait after a failure; it doubles up to `maximumRetryDelay`.
    static let initialRetryDelay = 0.25
    static let maximumRetryDelay = 5.0

    public init(socketPath: String) {
        self.socketPath = socketPath
        (messages, continuation) = AsyncStream.makeStream(of: Message.self, bufferingPolicy: .unbounded)
    }

    /// Starts the reading thread. It holds a blocking read in the kernel, so it lives until nobody listens to
    /// `messages` any more (the stream was terminated), which it notices at the next event or reconnection.
    public func start() {
        let thread = Thread { [self] in run() }
        thread.name = "watch-feed"
        thread.start()
    }

    private func run() {
        var delay = Self.initialRetryDelay
        var listened = true
        // The loop ends when nobody listens. A loop without an exit would also be correct here, but the release
        // build's loop-invariant code motion never finishes on one (Swift 6.3.1, swiftlang/swift#88618).
        while listened {
            let ending = streamUntilItEnds()
            if ending.wasOpen { delay = Self.initialRetryDelay }
            listened = ending.listened && Self.delivered(continuation.yield(.disconnected(ending.reason)))
            if listened {
                Thread.sleep(forTimeInterval: delay)
                delay = min(delay * 2, Self.maximumRetryDelay)
            }
        }
    }

    /// One connection's stream, from the call to its end: why it ended, whether it was open (the call sent), and
    /// whether anyone still listened.
    private func streamUntilItEnds() -> (reason: String, wasOpen: Bool, listened: Bool) {
        var wasOpen = false
        var listened = true
        var burst: [WatchEvent] = []
        func deliverBurst() {
            guard !burst.isEmpty else { return }
            listened = listened && Self.delivered(continuation.yield(.events(burst)))
            burst.removeAll()
        }
        do {
            let client = try ControlClient(path: socketPath)
            // The call is written before the host reads the daemon's state on another connection: the daemon
            // handles it first, so no change falls between what the host reads and what the stream shows.
            try client.stream(WatchMethod.self, WatchMethod.Parameters(), onSent: {
                wasOpen = true
                listened = Self.delivered(continuation.yield(.connected))
            }) { event in
                burst.append(event)
                // Events already read are held back only while the next one is read too, never for one to come.
                if !client.hasBufferedMessage { deliverBurst() }
                return listened
            }
            deliverBurst()
            return ("the daemon stopped", wasOpen, listened)
        } catch {
            deliverBurst()
            return (error.description, wasOpen, listened)
        }
    }

    private static func delivered(_ result: AsyncStream<Message>.Continuation.YieldResult) -> Bool {
        if case .terminated = result { return false }
        return true
    }
}
