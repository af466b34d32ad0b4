import Foundation
import HeapModule

/// The refresh scheduler: a state machine that takes events at explicit instants and returns actions.
///
/// It reads no clock and does no I/O. The caller passes `now`, carries out the returned actions in order (start
/// providers, answer requests, tell hosts about entry changes, persist state) and arms one timer for `nextWakeup()`.
/// The rules, in one place (see docs/scheduling.md):
/// - exempt runs (`initial`, `configuration`, `foreground`) start at once, spend no token and ignore the floor;
/// - budgeted runs (`policy`, `explicit`, `retry`) start at the latest of their due time, the previous start plus
///   the minimum interval, the next token and the end of backoff (see `PlannedRun.plan`);
/// - one run per widget at a time, and at most one pending follow-up: further requests are coalesced;
/// - at most `maxConcurrentRuns` runs at once, callers' provider requests (`ProviderRequests`) counted with them but
///   holding at most half the slots (at least one); the rest wait, exempt runs first, and when callers' requests and
///   widget runs both wait, free slots go to them in turn;
/// - a run planned for later wakes the daemon at the end of its coalesce-window slot, so runs due close together
///   share one wake-up (`CoalesceWindow`); entry changes are never delayed;
/// - failures back off exponentially and quarantine the widget at the threshold; a success resets both;
/// - the current entry is the newest timeline's latest entry whose date has come, announced at its date.
public struct Scheduler: Sendable {
    public private(set) var settings: SchedulerSettings
    public private(set) var widgets = DenseTable<WidgetSchedule>()
    /// Runs in flight, across all widgets.
    public private(set) var runningCount = 0
    /// Provider runs callers asked for (`Options`, an `Add`'s defaults), which share the slots.
    public private(set) var requests = ProviderRequests()

    private var idsByKind: [String: Set<String>] = [:]
    // Sorted ids of a kind and of all widgets with their table positions, kept until a widget is added or removed:
    // a request for a kind of 10 000 widgets would otherwise sort them, and hash every id, every time.
    private var sortedIDsByKind: [String: Members] = [:]
    private var sortedIDs: Members?
    // Entry changes are due at their dates exactly; runs are served at their coalesce-window slot's end. Apart, so
    // each is popped by its own rule and the wake-up knows how far sd-event may move it.
    private var entryDeadlines = DeadlineQueue()
    private var runDeadlines = DeadlineQueue()
    private var slotQueue = SlotQueue()
    private var budgetNoticeSent: Set<String> = []
    /// Whether the last slot that both callers and widget runs waited for went to a caller: the next goes to a widget.
    private var requestTookLastSlot = false
    private var wallOffset: Double?

    /// Clock readings this close are the same instant: float rounding must not delay an entry or re-arm a timer.
    static let tolerance = 1e-6
    /// A change of the wall-clock offset beyond this is a clock jump; smaller ones are NTP slew and rounding.
    static let jumpThreshold = 1e-3

    public init(settings: SchedulerSettings) {
        self.settings = settings
    }

    // MARK: - Queries

    /// Widget ids of a kind, sorted.
    public func widgetIDs(ofKind kind: String) -> [String] {
        (idsByKind[kind] ?? []).sorted()
    }

    /// All widget ids, sorted.
    public var widgetIDs: [String] { widgets.keys.sorted() }

    /// Whether any widget of `kind` is scheduled.
    public func hasWidgets(ofKind kind: String) -> Bool {
        idsByKind[kind] != nil
    }

    /// The kinds of the scheduled widgets.
    public var kinds: Set<String> { Set(idsByKind.keys) }

    /// The widget's pending run and when it will start; nil when none is pending (or it is quarantined). A run held
    /// by the floor, the budget or backoff, or due but not yet served (a catch-up after a restart), starts at the end
    /// of its coalesce-window slot; one waiting for a run slot has `at` now (it starts as soon as a slot frees) and
    /// `because` `.concurrency`.
    public func plannedRun(for id: String, at now: Instant) -> PlannedRun? {
        guard let position = widgets.position(forKey: id) else { return nil }
        return plannedRun(at: position, at: now)
    }

    private func plannedRun(at position: Int, at now: Instant) -> PlannedRun? {
        guard let pending = widgets[position: position].pending else { return nil }
        var plan = PlannedRun.plan(pending, for: widgets[position: position], at: now, settings: settings)
        if widgets[position: position].inFlight != nil && plan.at <= now.monotonic + Self.tolerance {
            plan.at = now.monotonic
        } else {
            // A run due now but not yet served (a catch-up after a restart) starts at its slot's end too.
            plan.at = window.wakeup(forDue: plan.at)
        }
        if slotQueue.contains(at: position) {
            plan.at = now.monotonic
            plan.because = .concurrency
        }
        return plan
    }

    /// Whether the widget's pending run is due at `now` but still on the deadline queue, waiting for the end of its
    /// coalesce-window slot: neither in flight nor waiting for a run slot.
    private func isDueAndUnserved(at position: Int, now: Instant) -> Bool {
        let widget = widgets[position: position]
        guard let pending = widget.pending, widget.inFlight == nil, !slotQueue.contains(at: position) else {
            return false
        }
        return PlannedRun.plan(pending, for: widget, at: now, settings: settings).at <= now.monotonic + Self.tolerance
    }

    private var window: CoalesceWindow { CoalesceWindow(seconds: settings.coalesceWindow, tolerance: Self.tolerance) }

    /// Tokens the widget has at `now`.
    public func tokens(of id: String, at now: Instant) -> Double? {
        widgets[id]?.budget.available(at: now.monotonic, settings: settings)
    }

    /// The monotonic instant the scheduler next needs `handle(.tick, at:)`, or nil when nothing is ever due.
    public mutating func nextWakeup() -> Double? {
        wakeup()?.at
    }

    /// The next wake-up: when the scheduler needs `handle(.tick, at:)`, and how much later it may come without
    /// serving a run later than its coalesce window allows or an entry change after its date. The daemon hands both
    /// to sd-event, which may align the wake-up with other services' within that accuracy; the simulation wakes at
    /// `at`. Nil when nothing is ever due.
    public mutating func wakeup() -> Wakeup? {
        let entry = entryDeadlines.earliest()
        guard let due = runDeadlines.earliest() else { return entry.map { Wakeup(at: $0, accuracy: 0) } }
        let at = window.wakeup(forDue: due)
        if let entry, entry <= at { return Wakeup(at: entry, accuracy: 0) }
        // Every run this wake-up serves is due at `due` or later, so each may wait until `due` plus the window.
        var latest = due + window.seconds
        if let entry { latest = min(latest, entry) }
        return Wakeup(at: at, accuracy: max(0, latest - at))
    }

    // MARK: - Restoring

    /// Makes room for `count` widgets at once, before restoring that many: the table never grows by copying.
    public mutating func reserveCapacity(_ count: Int) {
        widgets.reserveCapacity(count)
        entryDeadlines.reserveCapacity(count)
        runDeadlines.reserveCapacity(count)
        slotQueue.reserveCapacity(count)
    }

    /// Adds a widget restored from persisted state, without an initial run. Pending runs that came due while the
    /// daemon was down run through the usual rules on the next tick (catch-up without a storm).
    public mutating func restore(_ schedule: WidgetSchedule, at now: Instant) {
        var schedule = schedule
        schedule.inFlight = nil
        insert(schedule)
        wallOffset = now.wallOffset
        reschedule(schedule.id, at: now)
    }

    // MARK: - Events

    /// Applies one event at `now` and returns what to do, in order.
    public mutating func handle(_ event: SchedulerEvent, at now: Instant) -> [SchedulerAction] {
        // A finished run's usual actions (its state, its new entry and state again, the next run's start and state)
        // in one allocation: grown from empty, the array was reallocated three times for them.
        var actions: [SchedulerAction] = []
        actions.reserveCapacity(6)
        noticeWallClock(at: now, into: &actions)
        switch event {
        case .widgetAdded(let id, let kind):
            add(id: id, kind: kind, at: now, into: &actions)
        case .widgetRemoved(let id):
            remove(id)
        case .configurationChanged(let id, let request):
            if let position = widgets.position(forKey: id) {
                requestRun(id, at: position, PendingRun(reason: .configuration, due: .monotonic(now.monotonic)),
                           request: request, at: now, into: &actions)
            }
        case .reloadRequested(let target, let foreground, let request):
            let run = PendingRun(reason: foreground ? .foreground : .explicit, due: .monotonic(now.monotonic))
            let members = members(of: target)
            actions.reserveCapacity(actions.count + members.ids.count + 8)
            for (id, position) in zip(members.ids, members.positions) {
                requestRun(id, at: position, run, request: request, at: now, into: &actions)
            }
        case .runFinished(let id, let outcome):
            finish(id, outcome: outcome, at: now, into: &actions)
        case .tick:
            break
        case .settingsChanged(let newSettings):
            settings = newSettings
            for (position, id) in widgets.keys.enumerated() { reschedule(id, at: position, at: now) }
        case .providerRequested(let key, let uid, let caller):
            let slotFree = slotsInUse < settings.maxConcurrentRuns
                && requests.runningCount < ProviderRequests.slotLimit(ofConcurrentRuns: settings.maxConcurrentRuns)
            let admission = requests.admit(key, uid: uid, slotFree: slotFree, at: now.monotonic,
                                           perMinute: settings.optionsRate)
            actions.append(.providerRequestDecided(caller: caller, key: key, admission: admission))
            if admission == .start { actions.append(.startProviderRequest(key)) }
        case .providerRequestFinished(let key):
            requests.finished(key)
        }
        // Evaluating a widget removes none, so the positions stay valid through the loops. A widget whose entry
        // change starts its run too leaves the run queue in that evaluation, so none is evaluated twice for one cause.
        for (id, position) in entryDeadlines.popDue(through: now.monotonic + Self.tolerance) {
            evaluate(id, at: position, at: now, into: &actions)
        }
        for (id, position) in runDeadlines.popDue(through: window.servedThrough(now.monotonic)) {
            evaluate(id, at: position, at: now, into: &actions)
        }
        fillSlots(at: now, into: &actions)
        return actions
    }

    // MARK: - Event handlers

    private mutating func add(id: String, kind: String, at now: Instant, into actions: inout [SchedulerAction]) {
        guard widgets[id] == nil else { return }
        var schedule = WidgetSchedule(id: id, kind: kind, budget: RefreshBudget(fullAt: now.monotonic,
                                                                                settings: settings))
        schedule.pending = PendingRun(reason: .initial, due: .monotonic(now.monotonic))
        insert(schedule)
        actions.append(.stateChanged(widget: id))
        evaluate(id, at: now, into: &actions)
    }

    private mutating func remove(_ id: String) {
        guard let removal = widgets.remove(id) else { return }
        let schedule = removal.value
        if schedule.inFlight != nil { runningCount -= 1 }
        idsByKind[schedule.kind]?.remove(id)
        if idsByKind[schedule.kind]?.isEmpty == true { idsByKind[schedule.kind] = nil }
        // The table moved its last widget, of any kind, into the gap: every cached position may be stale.
        sortedIDsByKind.removeAll()
        sortedIDs = nil
        entryDeadlines.removeWidget(at: removal.position, movedWidget: removal.movedKey)
        runDeadlines.removeWidget(at: removal.position, movedWidget: removal.movedKey)
        slotQueue.removeWidget(at: removal.position, movedWidget: removal.movedKey)
        budgetNoticeSent.remove(id)
    }

    /// A request for one widget: every request gets exactly one decision, naming when the run that serves it starts
    /// and, when it waits, what holds it back (see `decision(for:at:joined:inFlight:now:)`).
    private mutating func requestRun(
        _ id: String, at position: Int, _ run: PendingRun, request: Int, at now: Instant,
        into actions: inout [SchedulerAction]
    ) {
        let effect = widgets.modify(at: position) {
            $0.take(run, at: now, settings: settings, tolerance: Self.tolerance)
        }
        // Repeated requests for a widget whose run is already planned change nothing, so nothing is persisted: a
        // `reload --kind` of thousands of widgets then costs a lookup per widget, not a write.
        if effect.changedPlan { actions.append(.stateChanged(widget: id)) }
        var started = false
        // Otherwise nothing to re-evaluate: the run it joined is in flight, or planned for later or waiting for a
        // slot, and this turn's end visits those queues anyway.
        if !effect.inFlight && effect.changedPlan {
            // A changed plan may change the widget's place in the slot queue (a foreground request goes first).
            slotQueue.remove(at: position)
            started = evaluate(id, at: position, at: now, into: &actions)
        } else if !effect.inFlight && isDueAndUnserved(at: position, now: now) {
            // A run already due (a catch-up after a restart) waits for the end of its coalesce-window slot only as
            // long as nobody asks: a caller who asks now is served now, as a request that plans a run is.
            started = evaluate(id, at: position, at: now, into: &actions)
        }
        let decision = started ? .ran(at: now.monotonic)
            : self.decision(at: position, joined: effect.joined, inFlight: effect.inFlight, now: now)
        actions.append(.decided(RequestDecision(request: request, widget: id, decision: decision,
                                                changedPlan: effect.changedPlan)))
    }

    /// The decision for a request that did not start a run, from the widget's plan after it:
    /// - waiting for a run slot: deferred from now, because of the concurrency limit, whether or not it joined a run
    ///   already waiting (the slot, not the other request, holds it back);
    /// - joined a run in flight: coalesced, at the follow-up's planned start (now when nothing but the run in flight
    ///   holds it: the follow-up starts as that run ends);
    /// - joined a run already due and waiting for the floor, a token or backoff: coalesced, at that run's start;
    /// - otherwise: deferred until the planned start, because of what sets it.
    private func decision(at position: Int, joined: Bool, inFlight: Bool, now: Instant) -> Decision {
        guard let plan = plannedRun(at: position, at: now) else { return .coalesced(at: now.monotonic) }
        if plan.because == .concurrency { return .deferred(at: plan.at, because: .concurrency) }
        if joined || inFlight { return .coalesced(at: plan.at) }
        return .deferred(at: plan.at, because: plan.because ?? .concurrency)
    }

    private mutating func finish(
        _ id: String, outcome: RunOutcome, at now: Instant, into actions: inout [SchedulerAction]
    ) {
        guard let position = widgets.position(forKey: id), let run = widgets[position: position].inFlight else {
            return
        }
        runningCount -= 1
        // The schedule is changed where it is, here and below, through its position: copied out and written back by
        // id, each step cost a copy of it and a hash of the id, a dozen of them a run.
        widgets.modify(at: position) { schedule in
            schedule.inFlight = nil
            // The provider ran to an end without the daemon dying: its earlier runs' deaths were not its doing.
            schedule.interruptedByDaemonDeaths = 0
            switch outcome {
            case .success(let timeline):
                schedule.consecutiveFailures = 0
                schedule.backoffUntil = nil
                schedule.quarantined = false
                let outline = TimelineOutline(timeline)
                // The replaced timeline's past scores are the widget's past; the new one's join as their dates come.
                let pastScore = schedule.timeline?.greatestPastScore(at: now.wall) ?? 0
                schedule.maxRelevanceScore = max(schedule.maxRelevanceScore, pastScore)
                schedule.timeline = outline
                // An entry of the new timeline that is current already replaces the shown one even when its date
                // and relevance equal it: its content is new. Otherwise the old entry stays until the new first date.
                if outline.currentEntryIndex(at: now.wall.addingTimeInterval(Self.tolerance)) != nil {
                    schedule.currentEntry = nil
                }
                let runStart = Instant(monotonic: run.startedAt, wall: now.wall(atMonotonic: run.startedAt))
                if let due = DueTime.after(success: outline, runStart: runStart) {
                    schedule.pending = schedule.pending.merging(PendingRun(reason: .policy, due: due), at: now)
                }
            case .failure:
                schedule.consecutiveFailures += 1
                let failures = schedule.consecutiveFailures
                if failures >= settings.quarantineThreshold {
                    schedule.quarantined = true
                    schedule.pending = nil
                    schedule.backoffUntil = nil
                    actions.append(.quarantined(widget: id, failures: failures))
                } else {
                    let until = now.monotonic + Backoff.delay(afterFailures: failures, settings: settings)
                    schedule.backoffUntil = until
                    schedule.pending = schedule.pending.merging(
                        PendingRun(reason: .retry, due: .monotonic(now.monotonic)), at: now)
                    actions.append(.backedOff(widget: id, failures: failures, until: until))
                }
            }
        }
        actions.append(.stateChanged(widget: id))
        evaluate(id, at: position, at: now, into: &actions)
    }

    // MARK: - Evaluation

    /// `evaluate(_:at:at:into:)` for a widget known by its id alone.
    @discardableResult
    private mutating func evaluate(_ id: String, at now: Instant, into actions: inout [SchedulerAction]) -> Bool {
        guard let position = widgets.position(forKey: id) else { return false }
        return evaluate(id, at: position, at: now, into: &actions)
    }

    /// Brings one widget, at `position` in `widgets`, up to `now`: announces a changed current entry, starts its
    /// pending run when nothing holds it back (or queues it for a slot), and re-arms its deadline. Returns whether a
    /// run started.
    @discardableResult
    private mutating func evaluate(
        _ id: String, at position: Int, at now: Instant, into actions: inout [SchedulerAction]
    ) -> Bool {
        var started = false
        let probe = now.wall.addingTimeInterval(Self.tolerance)
        let changedEntry = widgets.modify(at: position) { schedule -> TimelineOutline.Entry? in
            guard let timeline = schedule.timeline, let index = timeline.currentEntryIndex(at: probe),
                  timeline[index] != schedule.currentEntry else { return nil }
            schedule.currentEntry = timeline[index]
            return timeline[index]
        }
        if let changedEntry {
            actions.append(.entryChanged(widget: id, entry: changedEntry))
            actions.append(.stateChanged(widget: id))
        }
        if let pending = widgets[position: position].pending, widgets[position: position].inFlight == nil,
           !slotQueue.contains(at: position) {
            let plan = PlannedRun.plan(pending, for: widgets[position: position], at: now, settings: settings)
            if plan.at <= now.monotonic + Self.tolerance {
                if slotsInUse < settings.maxConcurrentRuns && slotQueue.isEmpty
                    && !requests.mayStartNext(ofConcurrentRuns: settings.maxConcurrentRuns) {
                    start(id, at: position, at: now, into: &actions)
                    started = true
                } else {
                    slotQueue.insert(id, at: position, priority: pending.reason.priority)
                }
            } else if plan.because == .budget, !budgetNoticeSent.contains(id) {
                budgetNoticeSent.insert(id)
                actions.append(.budgetExhausted(widget: id, until: window.wakeup(forDue: plan.at)))
            }
        }
        reschedule(id, at: position, at: now)
        return started
    }

    private mutating func start(
        _ id: String, at position: Int, at now: Instant, into actions: inout [SchedulerAction]
    ) {
        guard let pending = widgets[position: position].pending else { return }
        widgets.modify(at: position) { schedule in
            if pending.reason.isBudgeted, !pending.alreadyPaid, settings.bindsFloorAndBudget(ofKind: schedule.kind) {
                schedule.budget.spend(at: now.monotonic, settings: settings)
            }
            schedule.lastRunStart = now.monotonic
            schedule.inFlight = WidgetSchedule.RunInFlight(reason: pending.reason, startedAt: now.monotonic)
            schedule.pending = nil
        }
        runningCount += 1
        // Most often empty: a run's start then hashes nothing for it.
        if !budgetNoticeSent.isEmpty { budgetNoticeSent.remove(id) }
        actions.append(.startRun(widget: id, reason: pending.reason))
        actions.append(.stateChanged(widget: id))
    }

    /// Slots taken: widget runs and callers' provider requests in flight.
    public var slotsInUse: Int { runningCount + requests.runningCount }

    /// Starts queued runs while slots are free. Callers' requests and widget runs take turns while both wait, so
    /// neither starves the other; a caller's request goes first when the last such slot went to a widget.
    private mutating func fillSlots(at now: Instant, into actions: inout [SchedulerAction]) {
        while slotsInUse < settings.maxConcurrentRuns {
            let requestMayStart = requests.mayStartNext(ofConcurrentRuns: settings.maxConcurrentRuns)
            if requestMayStart && (!requestTookLastSlot || slotQueue.isEmpty), let key = requests.startNext() {
                if !slotQueue.isEmpty { requestTookLastSlot = true }
                actions.append(.startProviderRequest(key))
            } else if startQueuedRun(at: now, into: &actions) {
                if requestMayStart { requestTookLastSlot = false }
            } else if requestMayStart, let key = requests.startNext() {
                actions.append(.startProviderRequest(key))
            } else {
                break
            }
        }
    }

    /// Starts the first queued widget run still ready, exempt reasons first, then in the order they became ready;
    /// false when none is.
    private mutating func startQueuedRun(at now: Instant, into actions: inout [SchedulerAction]) -> Bool {
        while let (id, position) = slotQueue.popFirst() {
            guard widgets[position: position].inFlight == nil,
                  let pending = widgets[position: position].pending else { continue }
            let plan = PlannedRun.plan(pending, for: widgets[position: position], at: now, settings: settings)
            let ready = plan.at <= now.monotonic + Self.tolerance
            if ready { start(id, at: position, at: now, into: &actions) }
            reschedule(id, at: position, at: now)
            if ready { return true }
        }
        return false
    }

    /// `reschedule(_:at:at:)` for a widget known by its id alone.
    private mutating func reschedule(_ id: String, at now: Instant) {
        guard let position = widgets.position(forKey: id) else { return }
        reschedule(id, at: position, at: now)
    }

    /// The next deadlines of the widget at `position`: its next entry date, and its pending run's start (due time,
    /// before the coalesce window).
    private mutating func reschedule(_ id: String, at position: Int, at now: Instant) {
        var entry: Double?
        let probe = now.wall.addingTimeInterval(Self.tolerance)
        if let date = widgets[position: position].timeline?.nextEntryDate(after: probe) {
            entry = now.monotonic(at: date)
        }
        entryDeadlines.set(id, at: position, to: entry)
        var run: Double?
        if let pending = widgets[position: position].pending, widgets[position: position].inFlight == nil,
           !slotQueue.contains(at: position) {
            run = PlannedRun.plan(pending, for: widgets[position: position], at: now, settings: settings).at
        }
        runDeadlines.set(id, at: position, to: run)
    }

    private mutating func noticeWallClock(at now: Instant, into actions: inout [SchedulerAction]) {
        let offset = now.wallOffset
        defer { wallOffset = offset }
        guard let previous = wallOffset, abs(offset - previous) > Self.jumpThreshold else { return }
        actions.append(.wallClockJumped(delta: offset - previous))
        for (position, id) in widgets.keys.enumerated() { reschedule(id, at: position, at: now) }
    }

    private mutating func insert(_ schedule: WidgetSchedule) {
        let count = widgets.count
        widgets[schedule.id] = schedule
        if widgets.count > count {
            entryDeadlines.append()
            runDeadlines.append()
            slotQueue.append()
        }
        idsByKind[schedule.kind, default: []].insert(schedule.id)
        sortedIDsByKind[schedule.kind] = nil
        sortedIDs = nil
    }

    /// The widgets a request targets, in id order, with their positions in `widgets`.
    private struct Members {
        var ids: [String]
        var positions: [Int]
    }

    private mutating func members(of target: ReloadTarget) -> Members {
        func members(_ ids: [String]) -> Members {
            Members(ids: ids, positions: ids.map { widgets.position(forKey: $0)! })
        }
        switch target {
        case .kind(let kind):
            if let cached = sortedIDsByKind[kind] { return cached }
            let sorted = members(widgetIDs(ofKind: kind))
            sortedIDsByKind[kind] = sorted
            return sorted
        case .all:
            if let cached = sortedIDs { return cached }
            let sorted = members(widgetIDs)
            sortedIDs = sorted
            return sorted
        case .widgets(let ids):
            var seen: Set<String> = []
            var found = Members(ids: [], positions: [])
            for id in ids where seen.insert(id).inserted {
                guard let position = widgets.position(forKey: id) else { continue }
                found.ids.append(id)
                found.positions.append(position)
            }
            return found
        }
    }
}
