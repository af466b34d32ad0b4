/// A run a widget is waiting for: its reason and the earliest time it is due.
///
/// A widget has at most one pending run. A second request merges into it: the earlier due time and the stronger
/// reason win (exempt reasons outrank budgeted ones), so there is never more than one follow-up. A run already paid
/// for stays paid for once merged: the token it stands for was spent, and one run is still all that happens.
public struct PendingRun: Sendable, Hashable, Codable {
    public var reason: RunReason
    public var due: DueTime
    /// The run's token is already spent: it takes the place of a run a restart interrupted, which spent it. It starts
    /// without spending another, and waits for the floor but not for a token.
    public var alreadyPaid: Bool

    public init(reason: RunReason, due: DueTime, alreadyPaid: Bool = false) {
        self.reason = reason
        self.due = due
        self.alreadyPaid = alreadyPaid
    }

    /// This run merged with `other`, evaluated at `now`.
    public func merged(with other: PendingRun, at now: Instant) -> PendingRun {
        let reason = other.reason.priority > self.reason.priority ? other.reason : self.reason
        let due = other.due.resolved(at: now) < self.due.resolved(at: now) ? other.due : self.due
        return PendingRun(reason: reason, due: due, alreadyPaid: alreadyPaid || other.alreadyPaid)
    }

    private enum CodingKeys: String, CodingKey { case reason, due, alreadyPaid }

    // Schedules saved before `alreadyPaid` existed have no such key.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        reason = try container.decode(RunReason.self, forKey: .reason)
        due = try container.decode(DueTime.self, forKey: .due)
        alreadyPaid = try container.decodeIfPresent(Bool.self, forKey: .alreadyPaid) ?? false
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
