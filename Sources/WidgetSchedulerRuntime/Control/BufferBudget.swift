/// The bytes all control connections hold in the daemon, messages being received and replies not yet written,
/// against one budget (`buffer-budget`). Each connection reports its own holding as it changes, so the sum is known at
/// every moment, and a connection growing past its share while the budget is exceeded can be dropped at once, before
/// the end of the loop iteration (one event for 250 watchers is queued 250 times in one go).
final class BufferBudget {
    /// The budget in bytes.
    var limit: Int
    /// Bytes held now.
    private(set) var used = 0

    /// A connection past the budget holding more than this is dropped when it grows: well above what a client that
    /// reads (or a message in flight from one that writes) leaves in the daemon, since the socket's own kernel buffer
    /// (~208 KiB) fills first.
    static let shareAtRisk = 64 << 10

    init(limit: Int) {
        self.limit = limit
    }

    /// Whether more is held than the budget allows.
    var isExceeded: Bool { used > limit }

    /// Whether a reply of up to `bytes` fits in what the budget has left: a call whose reply is queued whole is
    /// refused before it is answered rather than let the budget overflow.
    func hasRoom(for bytes: Int) -> Bool {
        limit - used >= bytes
    }

    /// A connection's holding changed by `delta` bytes.
    func change(by delta: Int) {
        used += delta
    }
}
