/// When a widget's pending run will start, and what holds it back.
public struct PlannedRun: Sendable, Hashable {
    public var reason: RunReason
    /// Monotonic seconds; equal to now when nothing holds it back.
    public var at: Double
    /// The constraint that sets `at`, when it lies in the future.
    public var because: DeferralReason?

    public init(reason: RunReason, at: Double, because: DeferralReason?) {
        self.reason = reason
        self.at = at
        self.because = because
    }

    /// The start of a run for `run`'s reason, for widget `widget`, at the latest of: its due time; the previous start
    /// plus the minimum interval; the next token (unless the run is already paid for); the end of backoff. Exempt
    /// reasons wait for nothing; developer-mode kinds skip the floor and the budget, not backoff.
    public static func plan(
        _ run: PendingRun, for widget: WidgetSchedule, at now: Instant, settings: SchedulerSettings
    ) -> PlannedRun {
        let due = max(now.monotonic, run.due.resolved(at: now))
        guard run.reason.isBudgeted else { return PlannedRun(reason: run.reason, at: now.monotonic, because: nil) }
        var at = due
        var because: DeferralReason?
        if settings.bindsFloorAndBudget(ofKind: widget.kind) {
            if let last = widget.lastRunStart, last + settings.minimumInterval > at {
                at = last + settings.minimumInterval
                because = .floor
            }
            let token = run.alreadyPaid ? at : widget.budget.nextTokenTime(from: at, settings: settings)
            if token > at {
                at = token
                because = .budget
            }
        }
        if let backoff = widget.backoffUntil, backoff > at {
            at = backoff
            because = .backoff
        }
        return PlannedRun(reason: run.reason, at: at, because: at > now.monotonic ? because : nil)
    }
}
