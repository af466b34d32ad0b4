/// Everything the scheduler knows about one widget. Persisted by the daemon (the timeline separately).
public struct WidgetSchedule: Sendable, Hashable, Codable {
    /// The run in flight: why it runs and when it started (monotonic).
    public struct RunInFlight: Sendable, Hashable, Codable {
        public var reason: RunReason
        public var startedAt: Double
        public init(reason: RunReason, startedAt: Double) {
            self.reason = reason
            self.startedAt = startedAt
        }
    }

    public var id: String
    public var kind: String
    public var budget: RefreshBudget
    /// Monotonic start of the latest run, whatever its reason: the floor counts from here.
    public var lastRunStart: Double?
    public var consecutiveFailures: Int
    /// Budgeted runs wait until this monotonic instant after a failure.
    public var backoffUntil: Double?
    /// Set after `quarantineThreshold` consecutive failures: no automatic runs until a request lifts it.
    public var quarantined: Bool
    /// Daemon deaths in a row that a run of this widget was in flight at; a run that finishes resets it.
    public var interruptedByDaemonDeaths = 0
    public var inFlight: RunInFlight?
    public var pending: PendingRun?
    /// The newest successful timeline's outline (contents are the caller's). Kept through failures.
    public var timeline: TimelineOutline?
    /// The entry hosts should show now; it may belong to an older timeline until the new one's first date.
    public var currentEntry: TimelineOutline.Entry?
    /// The greatest relevance score of this widget's entries whose dates have come, for normalising its current score.
    /// A future entry's score counts only once its date comes (`Relevance.current` adds the current timeline's).
    public var maxRelevanceScore: Double

    /// The JSON form (the daemon's oldest saved states) predates the death count, which is 0 there.
    private enum CodingKeys: String, CodingKey {
        case id, kind, budget, lastRunStart, consecutiveFailures, backoffUntil, quarantined, inFlight, pending, timeline
        case currentEntry, maxRelevanceScore
    }

    public init(id: String, kind: String, budget: RefreshBudget) {
        self.id = id
        self.kind = kind
        self.budget = budget
        self.lastRunStart = nil
        self.consecutiveFailures = 0
        self.backoffUntil = nil
        self.quarantined = false
        self.inFlight = nil
        self.pending = nil
        self.timeline = nil
        self.currentEntry = nil
        self.maxRelevanceScore = 0
    }

    /// The state saved by a daemon that died (it did not stop cleanly) with this widget's run in flight: one more
    /// death in a row. The run in flight is what the daemon was doing when it died, so a provider that kills the
    /// daemon, or makes it crash or hang until its watchdog kills it, is in flight at every death; an innocent one
    /// finishes a run between two. At `threshold` deaths in a row the widget is quarantined, like a provider that
    /// fails `quarantineThreshold` times, and its interrupted run is dropped rather than run again at start. Without
    /// a run in flight, the state is returned as it is.
    public func afterDaemonDeath(threshold: Int) -> WidgetSchedule {
        guard inFlight != nil else { return self }
        var copy = self
        copy.interruptedByDaemonDeaths += 1
        if copy.interruptedByDaemonDeaths >= threshold {
            copy.quarantined = true
            copy.inFlight = nil
            copy.pending = nil
            copy.backoffUntil = nil
        }
        return copy
    }

    /// The state as saved by a daemon that stopped at `saved`, restored at `now`.
    ///
    /// Within one boot the monotonic clock is continuous and nothing moves. After a reboot, monotonic stamps are
    /// moved so that the wall-clock time that passed counts as elapsed, never less than 0: a wall clock that went
    /// backwards mints no token and lifts no floor. A run that was in flight is pending again with its reason, already
    /// paid for: its token stays spent, and its run again spends none.
    public func restored(savedAt saved: Instant, now: Instant, sameBoot: Bool) -> WidgetSchedule {
        var copy = self
        let shift: Double
        if sameBoot && now.monotonic >= saved.monotonic {
            shift = 0
        } else {
            let elapsed = max(0, now.wall.timeIntervalSince(saved.wall))
            shift = (now.monotonic - elapsed) - saved.monotonic
        }
        copy.budget = budget.rebased(by: shift)
        copy.lastRunStart = lastRunStart.map { $0 + shift }
        copy.backoffUntil = backoffUntil.map { $0 + shift }
        if case .monotonic(let due)? = pending?.due {
            copy.pending?.due = .monotonic(due + shift)
        }
        if let interrupted = inFlight {
            let startedAt = interrupted.startedAt + shift
            copy.lastRunStart = max(copy.lastRunStart ?? startedAt, startedAt)
            copy.inFlight = nil
            copy.pending = copy.pending.merging(
                PendingRun(reason: interrupted.reason, due: .monotonic(startedAt),
                           alreadyPaid: interrupted.reason.isBudgeted),
                at: now)
        }
        return copy
    }
}
