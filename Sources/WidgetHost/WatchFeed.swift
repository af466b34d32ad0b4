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
        case event(WatchEvent)
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

    /// Starts the reading thread. The thread lives as long as the process: its read blocks in the kernel, and the
    /// process ends it by exiting.
    public func start() {
        let thread = Thread { [self] in run() }
        thread.name = "watch-feed"
        thread.start()
    }

    private func run() {
        var delay = Self.initialRetryDelay
        while true {
            let reason: String
            do {
                let client = try ControlClient(path: socketPath)
                // The call is written before the host reads the daemon's state on another connection: the daemon
                // handles it first, so no change falls between what the host reads and what the stream shows.
                try client.stream(WatchMethod.self, WatchMethod.Parameters(), onSent: {
                    delay = Self.initialRetryDelay
                    continuation.yield(.connected)
                }) { event in
                    continuation.yield(.event(event))
                    return true
                }
                reason = "the daemon stopped"
            } catch {
                reason = error.description
            }
            continuation.yield(.disconnected(reason))
            Thread.sleep(forTimeInterval: delay)
            delay = min(delay * 2, Self.maximumRetryDelay)
        }
    }
}
