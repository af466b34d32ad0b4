/// Why a run waits.
public enum DeferralReason: String, Sendable, Hashable, Codable, CaseIterable {
    /// The minimum interval since the widget's previous run start has not passed.
    case floor
    /// The widget has no token left; the next one arrives at the planned time.
    case budget
    /// The widget failed recently and backs off.
    case backoff
    /// `maxConcurrentRuns` providers are already running.
    case concurrency

    /// Plain words for people: "minimum interval", "budget", "backoff", "concurrency limit".
    public var phrase: String {
        switch self {
        case .floor: return "minimum interval"
        case .budget: return "budget exhausted"
        case .backoff: return "backoff after failure"
        case .concurrency: return "concurrency limit"
        }
    }
}

/// What the scheduler did with one request for one widget. Every request gets one per widget it names.
public enum Decision: Sendable, Hashable {
    /// The run started now (`at` is now).
    case ran(at: Double)
    /// The request joined a run that is in flight or already pending; `at` is when that run starts or started.
    case coalesced(at: Double)
    /// A run is planned for `at` (monotonic seconds), later than now, because of `because`.
    case deferred(at: Double, because: DeferralReason)

    /// "ran", "coalesced" or "deferred".
    public var name: String {
        switch self {
        case .ran: return "ran"
        case .coalesced: return "coalesced"
        case .deferred: return "deferred"
        }
    }

    /// The instant the decision names.
    public var at: Double {
        switch self {
        case .ran(let at), .coalesced(let at), .deferred(let at, _): return at
        }
    }

    public var because: DeferralReason? {
        if case .deferred(_, let because) = self { return because }
        return nil
    }
}
