import WidgetProtocol
import WidgetSchedulerCore

/// The state's writes as the control API sees them (`StatePersistence` makes them, `flush()` starts them): whether
/// changes or replies wait for a write, the spell of failed writes, and the checks and waits that keep a client from
/// being told of a change that a failed write would lose.
extension WidgetService {
    /// Whether changes are waiting for `flush()`.
    public var hasUnwrittenChanges: Bool { state.hasUnwrittenChanges }

    /// Whether client replies wait for the next write: the daemon writes at the end of the turn.
    public var hasRepliesAwaitingWrite: Bool { state.hasRepliesAwaitingWrite }

    /// While writes fail, the monotonic instant the backoff allows the next attempt; nil while they succeed.
    public var stateWriteRetryAt: Double? { state.health.nextAttempt }

    /// The spell of failed writes the service is in, nil while writes succeed.
    public var stateWriteFailure: StateWriteHealth.Failure? { state.health.failure }

    /// Calls `completion` once the changes made so far are committed (nil), or with `StateNotWritten` (applied) if
    /// the write that should hold them fails: a state-changing reply is sent from here.
    public func whenWritten(_ completion: @escaping (ControlError?) -> Void) {
        state.whenWritten(completion)
    }

    /// Checks, before a client's change is made, that it can be saved: while writes fail, one attempt is made at
    /// once (at most once a second, `StateWriteHealth`), and if writes still fail the request is refused with
    /// `StateNotWritten` (not applied), so nothing is changed that would be lost.
    public func requireWritableState() throws(ControlError) {
        guard state.health.isDegraded else { return }
        if state.mayAttemptWriteForClient(at: clock.now()) { flush() }
        if let failure = state.health.failure { throw .stateNotWritten(cause: failure.cause, applied: false) }
    }
}
