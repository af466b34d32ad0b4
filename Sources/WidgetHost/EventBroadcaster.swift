import Synchronization

/// The pages listening for events: each gets its own bounded stream of Server-Sent Event frames. A page that falls
/// so far behind that its stream fills up is cut off rather than sent a partial picture; its browser reconnects at
/// once and starts again from the whole grid.
final class EventBroadcaster: Sendable {
    /// Frames a page may have waiting before it is cut off.
    static let backlogLimit = 256

    private let subscribers = Mutex<(next: Int, continuations: [Int: AsyncStream<String>.Continuation])>(
        (next: 0, continuations: [:]))

    var count: Int { subscribers.withLock { $0.continuations.count } }

    func subscribe() -> (id: Int, stream: AsyncStream<String>) {
        let (stream, continuation) = AsyncStream.makeStream(
            of: String.self, bufferingPolicy: .bufferingOldest(Self.backlogLimit))
        let id = subscribers.withLock { state in
            let id = state.next
            state.next += 1
            state.continuations[id] = continuation
            return id
        }
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(id) }
        return (id, stream)
    }

    func unsubscribe(_ id: Int) {
        let continuation = subscribers.withLock { $0.continuations.removeValue(forKey: id) }
        continuation?.finish()
    }

    func send(to id: Int, _ frame: String) {
        guard let continuation = subscribers.withLock({ $0.continuations[id] }) else { return }
        deliver(frame, to: continuation, id: id)
    }

    func broadcast(_ frame: String) {
        let all = subscribers.withLock { $0.continuations }
        for (id, continuation) in all { deliver(frame, to: continuation, id: id) }
    }

    private func deliver(_ frame: String, to continuation: AsyncStream<String>.Continuation, id: Int) {
        if case .dropped = continuation.yield(frame) { unsubscribe(id) }
    }
}
