/// When the daemon writes a loop turn's changes to the state store: the pure rule, with `now` as an argument.
///
/// A commit costs far more than the changes of one provider run (a transaction, its WAL frames, the history trim),
/// so writes are paced:
/// - a change after a quiet spell is written at the next idle moment (nothing of normal priority pending), or after
///   `maximumDelay` if no idle moment comes;
/// - while changes keep coming, writes are at least `minimumInterval` apart, so a burst of runs shares one commit;
/// - a client waiting for its change to be committed (a state-changing request's reply is sent only after its
///   commit) has the turn's changes written at once, whatever the interval;
/// - after a failed write, the next is tried when `StateWriteHealth`'s backoff says, not every turn.
///
/// A run's spent token is journaled before its provider starts (`StateStore.recordRunStarts`), so what a `kill -9`
/// can take is at most `minimumInterval + maximumDelay` of run results, which the restarted daemon runs again; no
/// client was told of them.
public struct WritePacer: Sendable, Equatable {
    /// What the daemon does with its unwritten changes at the end of a loop turn.
    public enum Action: Sendable, Equatable {
        /// Nothing is waiting.
        case nothing
        /// Write now.
        case write
        /// Write at the next idle moment.
        case writeWhenIdle
        /// Too soon after the last write: look again at this monotonic instant (seconds).
        case wait(until: Double)
    }

    /// The shortest time between two writes while changes keep coming (seconds).
    public let minimumInterval: Double
    /// The longest a change waits for an idle moment once `minimumInterval` has passed (seconds).
    public let maximumDelay: Double
    /// When the last write finished, on the monotonic clock.
    public private(set) var lastWrite = -Double.infinity
    /// When the oldest change not yet written was first seen, on the monotonic clock.
    public private(set) var unwrittenSince: Double?

    public init(minimumInterval: Double = 0.1, maximumDelay: Double = 0.05) {
        self.minimumInterval = minimumInterval
        self.maximumDelay = maximumDelay
    }

    /// The action for the end of a loop turn at `now`, given whether changes are waiting, whether a client's reply
    /// waits for them to be committed, and, while writes fail, when the backoff allows the next attempt.
    public mutating func endOfTurn(at now: Double, hasUnwrittenChanges: Bool, repliesWaiting: Bool = false,
                                   retryAt: Double? = nil) -> Action {
        guard hasUnwrittenChanges else {
            unwrittenSince = nil
            return .nothing
        }
        let since = unwrittenSince ?? now
        unwrittenSince = since
        if repliesWaiting { return .write }
        if let retryAt { return now >= retryAt ? .write : .wait(until: retryAt) }
        let earliest = lastWrite + minimumInterval
        if now < earliest { return .wait(until: earliest) }
        // The idle wait counts from when the interval allowed a write, not from the change: a change that waited out
        // the interval has waited long enough.
        return now - max(since, earliest) >= maximumDelay ? .write : .writeWhenIdle
    }

    /// A write finished at `now`; `remaining` tells whether it left changes unwritten (it failed, and will be retried).
    public mutating func wrote(at now: Double, remaining: Bool) {
        lastWrite = now
        if !remaining { unwrittenSince = nil }
    }
}
