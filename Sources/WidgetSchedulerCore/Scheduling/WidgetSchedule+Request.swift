extension WidgetSchedule {
    /// What taking one reload request did to a widget's schedule.
    struct RequestEffect {
        /// False when the request changed nothing: its run was already planned or in flight with a follow-up.
        var changedPlan: Bool
        /// The request joined a run in flight or one already due and waiting.
        var joined: Bool
        var inFlight: Bool
        /// The pending run's plan after the request.
        var plan: PlannedRun?
    }

    /// Takes a request for `run`: lifts quarantine (an explicit, foreground or configuration request gives the
    /// provider another try), merges `run` into the pending run, and plans it. Mutating, so the scheduler applies it
    /// in place: a copy of the schedule per widget was most of the cost of a `reload --kind` of 10 000 widgets.
    mutating func take(_ run: PendingRun, at now: Instant, settings: SchedulerSettings, tolerance: Double)
        -> RequestEffect
    {
        let liftsQuarantine = quarantined
        if quarantined {
            quarantined = false
            backoffUntil = nil
        }
        // A request joins a run in flight or one already due and waiting (for the floor, a token, backoff or a
        // slot). A policy reload planned for later is not such a run: the request pulls it forward instead.
        let joined = inFlight != nil || pending.map { $0.due.resolved(at: now) <= now.monotonic + tolerance } == true
        let before = pending
        pending = pending.merging(run, at: now)
        let plan = pending.map { PlannedRun.plan($0, for: self, at: now, settings: settings) }
        return RequestEffect(changedPlan: liftsQuarantine || pending != before, joined: joined,
                             inFlight: inFlight != nil, plan: plan)
    }
}
