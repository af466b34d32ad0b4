/// A run a widget is waiting for: its reason and the earliest time it is due.
///
/// A widget has at most one pending run. A second request merges into it: the earlier due time and the stronger
/// reason win (exempt reasons outrank budgeted ones), so there is never more than one follow-up.
public struct PendingRun: Sendable, Hashable, Codable {
    public var reason: RunReason
    public var due: DueTime

    public init(reason: RunReason, due: DueTime) {
        self.reason = reason
        self.due = due
    }

    /// This run merged with `other`, evaluated at `now`.
    public func merged(with other: PendingRun, at now: Instant) -> PendingRun {
        let reason = other.reason.priority > self.reason.priority ? other.reason : self.reason
        let due = other.due.resolved(at: now) < self.due.resolved(at: now) ? other.due : self.due
        return PendingRun(reason: reason, due: due)
    }
}

extension Optional where Wrapped == PendingRun {
    /// Merges `run` into an optional pending run.
    func merging(_ run: PendingRun, at now: Instant) -> PendingRun {
        switch self {
        case .none: return run
        case .some(let existing): return existing.merged(with: run, at: now)
        }
    }
}
