import Foundation
import Logging
import WidgetProtocol
import WidgetProviders
import WidgetSchedulerCore

/// The daemon's logic around the pure scheduler: it feeds the scheduler events with `now`, and carries out the
/// actions it returns through small effects (launcher, timer, store, log), so it runs the same against fakes.
///
/// Everything here runs on the event loop's one thread. Changes are collected (a `StateBatch`, and the widgets whose
/// schedule or timeline changed) and written by `flush()`, when the daemon's `WritePacer` says.
public final class WidgetService {
    /// Where the service keeps its files and how it behaves.
    public struct Options: Sendable {
        /// The state directory; group data lives in `groups/` below it.
        public var stateDirectory: URL
        /// The control socket's path, for `Status`.
        public var socketPath: String
        /// Seconds between SIGTERM and SIGKILL for a provider past its timeout.
        public var providerGrace: Double

        public init(stateDirectory: URL, socketPath: String, providerGrace: Double = 2) {
            self.stateDirectory = stateDirectory
            self.socketPath = socketPath
            self.providerGrace = providerGrace
        }
    }

    /// A `Watch` client: its filter and how to send it an event (false once it is gone).
    struct Watcher {
        var filter: WatchMethod.Parameters
        var send: (WatchEvent) -> Bool
    }

    public let options: Options
    public private(set) var scheduler: Scheduler
    public private(set) var manifests: ManifestSet
    let clock: DaemonClock
    let launcher: ProviderLauncher
    let timer: WakeupTimer
    let store: StateStoring
    var logger: Logger
    let startedAt: Date
    /// The kernel's boot id, read once: `flush()` stamps it on every commit.
    let bootID = SystemClock.bootID()

    var widgets = DenseTable<ManagedWidget>()
    var running: [String: ProviderRunHandle] = [:]
    var batch = StateBatch()
    /// Timelines received since the last successful `flush()`, with their contents and arrival: the store has them
    /// only once they are written. Older timelines' contents are read from the store when needed.
    var freshTimelines: [String: (timeline: Timeline, receivedAt: Date)] = [:]
    /// Widgets whose scheduler state changed since the last successful `flush()`. Their records are encoded when
    /// written, once per write, not once per change: a busy widget changes state twice per run.
    var unwrittenSchedules: Set<String> = []
    var watchers: [Int: Watcher] = [:]
    var nextWatcherID = 0
    var nextRequestID = 0
    var nextWidgetNumber = 1
    /// Events produced while carrying out actions, handled right after (never re-entrantly).
    var followUps: [SchedulerEvent] = []
    var isHandling = false
    /// The metadata of a run's end line, kept between lines, by `writeRunLine`'s shape: succeeded, failed, or
    /// succeeded standing for earlier runs too, each with or without an exit status.
    private var runLineTemplates = [MetadataTemplate?](repeating: nil, count: 6)
    /// Successful runs' lines, folded while a widget runs again, alike, before the next state write.
    private var runLines = RunLineFolder<RunLine>()
    /// Counts handled events, so the daemon knows when its STATUS= line may have changed.
    public private(set) var revision = 0

    public init(
        options: Options, settings: SchedulerSettings, manifests: ManifestSet, clock: DaemonClock,
        launcher: ProviderLauncher, timer: WakeupTimer, store: StateStoring, logger: Logger
    ) {
        self.options = options
        self.scheduler = Scheduler(settings: settings)
        self.manifests = manifests
        self.clock = clock
        self.launcher = launcher
        self.timer = timer
        self.store = store
        self.logger = logger
        self.startedAt = clock.now().wall
    }

    // MARK: - Loading and saving

    /// Restores every widget from the store. A reload that came due while the daemon was down runs after start,
    /// through the usual rules; a run that was in flight is pending again, its token still spent.
    public func load() throws {
        let meta = try store.allMeta()
        let now = clock.now()
        let saved = Self.savedClock(meta["clock"])
        let sameBoot = saved?.boot == bootID
        nextWidgetNumber = Int(meta["nextWidgetNumber"] ?? "") ?? 1
        let count = try store.widgetCount()
        widgets.reserveCapacity(count)
        scheduler.reserveCapacity(count)
        // One row at a time, keeping only what scheduling needs: entry dates, not contents.
        try store.forEachStoredWidget(timelines: .outlines) { item in
            let record = item.widget
            let configuration = JSONValue(jsonText: record.configuration)?.objectValue ?? [:]
            var persisted: PersistedWidgetState?
            if let blob = item.schedule?.state {
                do {
                    persisted = try PersistedWidgetState(decoding: blob)
                } catch {
                    let text = "widget \(record.id): its stored schedule is unreadable (\(error)); starting it with "
                        + "a full budget"
                    logger.warning("\(text)", metadata: [JournalField.widgetID: "\(record.id)"])
                }
            } else {
                logger.warning("widget \(record.id) has no stored schedule; starting it with a full budget",
                               metadata: [JournalField.widgetID: "\(record.id)"])
            }
            var schedule = persisted?.schedule
                ?? WidgetSchedule(id: record.id, kind: record.kind,
                                  budget: RefreshBudget(fullAt: now.monotonic, settings: scheduler.settings))
            schedule.timeline = storedOutline(item)
            if let saved {
                schedule = schedule.restored(savedAt: saved.instant, now: now, sameBoot: sameBoot)
            }
            if persisted?.lastRun?.outcome == nil, persisted?.lastRun != nil {
                persisted?.lastRun?.outcome = RunFailureReason.interrupted.rawValue
            }
            widgets[record.id] = ManagedWidget(id: record.id, kind: record.kind, family: record.family,
                                               configuration: configuration, addedAt: record.addedAt,
                                               lastRun: persisted?.lastRun, currentContent: persisted?.currentContent)
            scheduler.restore(schedule, at: now)
            nextWidgetNumber = max(nextWidgetNumber, (Int(record.id.dropFirst()) ?? 0) + 1)
        }
        createGroupDirectories()
        _ = handle(.tick)
    }

    /// The outline of a widget's stored timeline: its compact column, or its JSON for a row written before outlines
    /// were stored. An unreadable one is logged and dropped (the widget keeps its schedule and runs again).
    private func storedOutline(_ item: StoredWidget) -> TimelineOutline? {
        do {
            if let blob = item.outline { return try TimelineOutline(compact: blob) }
            if let text = item.timeline?.timeline {
                return TimelineOutline(try Timeline(storedJSON: text))
            }
        } catch {
            let text = "widget \(item.widget.id): its stored timeline is unreadable (\(error)); it shows nothing "
                + "new until its next run"
            logger.warning("\(text)", metadata: [JournalField.widgetID: "\(item.widget.id)"])
        }
        return nil
    }

    /// The widget's newest timeline with its contents: this turn's if not yet written, else the store's.
    func fullTimeline(of id: String) -> Timeline? {
        freshTimelines[id]?.timeline ?? storedTimelines(of: [id])[id]
    }

    /// The widgets' stored timelines with their contents, read in one go, by widget id. One the store cannot give is
    /// logged and left out.
    func storedTimelines(of ids: [String]) -> [String: Timeline] {
        guard !ids.isEmpty else { return [:] }
        let records: [String: TimelineRecord]
        do {
            records = try store.timelines(widgetIDs: ids)
        } catch {
            let widgets = ids.count == 1 ? ids[0] : "\(ids.count) widgets"
            logger.error("cannot read the stored timeline of \(widgets): \(error)",
                         metadata: ids.count == 1 ? metadata(ids[0]) : [:])
            return [:]
        }
        var timelines: [String: Timeline] = [:]
        timelines.reserveCapacity(records.count)
        for (id, record) in records {
            do {
                timelines[id] = try Timeline(storedJSON: record.timeline)
            } catch {
                logger.error("\(id): cannot read its stored timeline: \(error)", metadata: metadata(id))
            }
        }
        return timelines
    }

    /// Whether changes are waiting for `flush()`.
    public var hasUnwrittenChanges: Bool { !batch.isEmpty || !unwrittenSchedules.isEmpty || !freshTimelines.isEmpty }

    /// Writes the changes since the last write in one transaction, with the clock stamp used to restore after a
    /// restart.
    public func flush() {
        writeFoldedRunLines()
        guard hasUnwrittenChanges else { return }
        let now = clock.now()
        for id in unwrittenSchedules {
            if let record = scheduleRecord(id, at: now) { batch.upsertSchedule(record) }
        }
        for (id, fresh) in freshTimelines where widgets[id] != nil {
            batch.upsertTimeline(TimelineRecord(widgetID: id, timeline: fresh.timeline.storedJSON(),
                                                receivedAt: fresh.receivedAt, currentEntryIndex: nil,
                                                outline: TimelineOutline(fresh.timeline).compactEncoded()))
        }
        batch.setMeta("clock", "\(bootID) \(now.monotonic) \(now.wall.timeIntervalSince1970)")
        batch.setMeta("nextWidgetNumber", String(nextWidgetNumber))
        do {
            try store.apply(batch)
            batch.removeAll()
            unwrittenSchedules.removeAll(keepingCapacity: true)
            freshTimelines.removeAll(keepingCapacity: true)
        } catch {
            // Keep the batch: the next turn retries it with its own changes merged in; nothing is lost while the
            // process lives.
            logger.error("cannot write state: \(error)")
        }
    }

    static func savedClock(_ text: String?) -> (boot: String, instant: Instant)? {
        let parts = text?.split(separator: " ") ?? []
        guard parts.count == 3, let monotonic = Double(parts[1]), let wall = Double(parts[2]) else { return nil }
        return (String(parts[0]), Instant(monotonic: monotonic, wall: Date(timeIntervalSince1970: wall)))
    }

    /// Marks the widget's scheduler state to be written by the next `flush()`.
    func persist(_ id: String) {
        unwrittenSchedules.insert(id)
    }

    /// The widget's scheduler state as stored, at `now`; nil once the widget is gone.
    func scheduleRecord(_ id: String, at now: Instant) -> WidgetScheduleRecord? {
        guard let widget = widgets[id], var schedule = scheduler.widgets[id] else { return nil }
        schedule.timeline = nil
        let data = PersistedWidgetState(schedule: schedule, lastRun: widget.lastRun,
                                        currentContent: widget.currentContent).encoded()
        let next = scheduler.plannedRun(for: id, at: now).map { now.wall(atMonotonic: $0.at) }
        return WidgetScheduleRecord(widgetID: id, state: data, nextDue: next, quarantined: schedule.quarantined)
    }

    // MARK: - Driving the scheduler

    /// Hands one event to the scheduler at the current instant and carries out its actions. Returns the decisions
    /// made for this event's request, if it was one.
    ///
    /// `prelude` tells what caused the event (a finished run's journal line and `runFinished`); it is called once
    /// the event's runs are spawned and before anything else is told, so the spawns wait for no logging.
    @discardableResult
    public func handle(_ event: SchedulerEvent, prelude: (() -> Void)? = nil) -> [RequestDecision] {
        precondition(!isHandling, "WidgetService.handle is not re-entrant")
        isHandling = true
        defer { isHandling = false }
        var decisions: [RequestDecision] = []
        var events = [event]
        var prelude = prelude
        while !events.isEmpty {
            let now = clock.now()
            let next = events.removeFirst()
            let decided = perform(scheduler.handle(next, at: now), at: now, prelude: prelude)
            if decisions.isEmpty { decisions = decided } else { decisions += decided }
            prelude = nil
            events += followUps
            followUps = []
        }
        armTimer()
        revision &+= 1
        return decisions
    }

    /// The timer fired, or the wall clock changed.
    public func tick() {
        handle(.tick)
    }

    func armTimer() {
        timer.arm(at: scheduler.nextWakeup(), accuracy: 0)
    }

    /// Carries out one event's actions in three passes: the state changes (persisted, and the spends of the runs
    /// to start recorded where a kill cannot take them), then the spawns, then the telling (journal, watchers), in
    /// the actions' order. A spawn thus follows a provider's exit after only the work that decides it. Returns the
    /// request's decisions among the actions.
    private func perform(_ actions: [SchedulerAction], at now: Instant,
                         prelude: (() -> Void)?) -> [RequestDecision] {
        // Gathered in a local array: appending to a property of the service checked its exclusive access each time,
        // 10 000 times for a kind's `Reload`.
        var decisions: [RequestDecision] = []
        // With each widget's position in `widgets`, found once: no widget is removed until the runs are launched.
        var starts: [(id: String, position: Int, reason: RunReason)] = []
        // A widget's actions come together (a finished run's state, its entry, its state again): its id is noted
        // for the write once, not hashed into the set for each.
        var persisted: String?
        func persistOnce(_ id: String) {
            guard id != persisted else { return }
            persist(id)
            persisted = id
        }
        // The stored timelines of the entries changing now, read in one go: widgets whose entries fall on the same
        // instants (on the minute, say) change together, and one read of the store a widget was most of that turn.
        var changing: [String] = []
        for index in actions.indices {
            if case .entryChanged(let id, _) = actions[index], freshTimelines[id] == nil { changing.append(id) }
        }
        let stored = storedTimelines(of: changing)
        for index in actions.indices {
            // A request's decisions change no state here, and are most of a large request's actions (10 000 for a
            // kind's `Reload`): skipped on the tag alone, not copied out.
            if case .decided = actions[index] { continue }
            switch actions[index] {
            case .startRun(let id, let reason):
                persistOnce(id)
                guard let position = widgets.position(forKey: id) else { break }
                starts.append((id, position, reason))
                widgets[position: position].lastRun = .init(startedAt: now.wall, reason: reason, outcome: nil)
            case .entryChanged(let id, let entry):
                guard let position = widgets.position(forKey: id) else { break }
                let fresh = freshTimelines[id]?.timeline
                let content = (fresh ?? stored[id])?.entries.first { $0.date == entry.date }?.content
                widgets.modify(at: position) { widget in
                    widget.currentContent = content
                    widget.currentContentIsDecoded = fresh != nil
                }
            case .stateChanged(let id):
                persistOnce(id)
            case .decided, .backedOff, .quarantined, .budgetExhausted, .wallClockJumped:
                break
            }
        }
        if !starts.isEmpty { recordSpends(of: starts, at: now) }
        let launched = starts.compactMap { launchRun($0.id, at: $0.position, reason: $0.reason, at: now) }
        prelude?()
        for action in actions {
            switch action {
            case .decided(let decided):
                if decisions.isEmpty { decisions.reserveCapacity(actions.count) }
                decisions.append(decided)
                if decided.changedPlan {
                    logDecision(decided, at: now)
                } else if !watchers.isEmpty, let kind = widgets[decided.widget]?.kind {
                    // Logged in bulk by the request (`logUnchanged`); hosts still see each decision.
                    broadcast(.decided(kind: kind, date: now.wall,
                                       decision: ReloadDecision(widget: decided.widget, decision: decided.decision,
                                                                now: now)))
                }
            case .entryChanged(let id, let entry):
                announceEntry(id, entry)
            case .backedOff(let id, let failures, let until):
                let next = RFC3339.string(from: now.wall(atMonotonic: until))
                logger.info("\(id): backing off until \(next) after \(failures) consecutive failure(s)",
                            metadata: metadata(id, [JournalField.nextReload: "\(next)"]))
            case .quarantined(let id, let failures):
                let reason = widgets[id]?.lastRun?.outcome ?? ""
                let text = "\(id): quarantined after \(failures) consecutive failures; an explicit, foreground or "
                    + "configuration request lifts it"
                logger.warning("\(text)",
                               metadata: metadata(id, [
                                   JournalField.messageID: JournalMessageID.quarantined.metadataValue,
                                   JournalField.failureReason: "\(reason)"]))
            case .budgetExhausted(let id, let until):
                let next = RFC3339.string(from: now.wall(atMonotonic: until))
                logger.notice("\(id): refresh budget exhausted; next token at \(next)", metadata: metadata(id, [
                    JournalField.messageID: JournalMessageID.budgetExhausted.metadataValue,
                    JournalField.nextReload: "\(next)",
                    JournalField.tokens: "\(Self.twoDecimals(scheduler.tokens(of: id, at: now) ?? 0))"]))
            case .wallClockJumped(let delta):
                logger.notice("wall clock jumped by \(String(format: "%+.3f", delta)) s; deadlines recomputed",
                              metadata: [JournalField.messageID: JournalMessageID.clockChanged.metadataValue])
            case .startRun, .stateChanged:
                break
            }
        }
        for run in launched {
            // A run still going once it has lasted 25 ms gets a "running" line then, with its pid; a quicker one only
            // its end-of-run line, which carries the same fields: one line a run rather than two.
            run.handle.whenLasting { [weak self] pid in self?.logStart(run, pid: pid) }
        }
        return decisions
    }

    /// A spent token and the run's start must survive a kill -9 before the provider runs: a restart would otherwise
    /// refund the token and run the widget again inside the floor. The store records the starting widgets'
    /// schedules (one write, no commit); if it cannot, the whole batch is committed instead. A kind in developer mode
    /// has neither floor nor budget to protect: its run starts are written with the turn's changes.
    private func recordSpends(of starts: [(id: String, position: Int, reason: RunReason)], at now: Instant) {
        var bound: [WidgetScheduleRecord] = []
        for (id, position, _) in starts {
            // The kind read in place: `widgets[id]?.kind` copied the whole widget out for it.
            guard scheduler.settings.bindsFloorAndBudget(ofKind: widgets[position: position].kind),
                  let record = scheduleRecord(id, at: now) else { continue }
            bound.append(record)
        }
        guard !bound.isEmpty else { return }
        do {
            try store.recordRunStarts(bound)
        } catch {
            logger.error("cannot record the runs' spent tokens (\(error)); committing the state before they start")
            flush()
        }
    }

    // MARK: - Runs

    /// A run just launched, whose journal line is written once the event's other news is told and its pid known.
    private struct LaunchedRun {
        var id: String
        var kind: String
        var reason: RunReason
        var handle: ProviderRunHandle
    }

    /// Spawns the provider of the widget at `position` of `widgets`; nil if no manifest serves its kind (that run
    /// has already failed).
    private func launchRun(_ id: String, at position: Int, reason: RunReason, at now: Instant) -> LaunchedRun? {
        // The fields read in place: a copy of the widget retained every one of them for a request of three.
        let kind = widgets[position: position].kind
        guard let manifest = manifests.manifest(forKind: kind) else {
            let failure = ProviderRunFailure(reason: .spawn, detail: "no manifest serves kind \"\(kind)\"",
                                             stderrTail: "")
            finishRun(id, reason: reason, result: .failure(failure), stats: ProviderRunStats(pid: 0, exitStatus: nil,
                                                                                             duration: 0),
                      deferred: true)
            return nil
        }
        let request = ProviderRequest(
            request: .timeline, kind: kind,
            widget: ProviderRequest.Widget(id: id, family: widgets[position: position].family,
                                           configuration: widgets[position: position].configuration),
            context: ProviderRequest.Context(now: now.wall, isPreview: false, reason: reason,
                                             dataDirectory: manifest.group.map { groupDirectory($0).path }))
        let invocation = ProviderInvocation(manifest: manifest, request: request, grace: options.providerGrace)
        let handle = launcher.launch(invocation) { [weak self] result, stats in
            self?.finishRun(id, reason: reason, result: result, stats: stats, deferred: false)
        }
        running[id] = handle
        return LaunchedRun(id: id, kind: kind, reason: reason, handle: handle)
    }

    private func logStart(_ run: LaunchedRun, pid: Int32) {
        writeFoldedRunLine(of: run.id)
        let now = clock.now()
        let developer = !scheduler.settings.bindsFloorAndBudget(ofKind: run.kind) && run.reason.isBudgeted
        let note = developer ? "; developer mode: budget and floor lifted" : ""
        // The widget's fields in the literal, not through `metadata(_:_:)`: this line and the run's end come with
        // every run, and the helper copies the dictionary and looks the kind up again.
        logger.info("\(run.id): running \(run.kind) provider (\(run.reason.rawValue))\(note)", metadata: [
            JournalField.messageID: JournalMessageID.runStarted.metadataValue,
            JournalField.reloadReason: .string(run.reason.rawValue),
            JournalField.providerPID: .string(String(pid)),
            JournalField.tokens: .string(Self.twoDecimals(scheduler.tokens(of: run.id, at: now) ?? 0)),
            JournalField.widgetID: .string(run.id),
            JournalField.widgetKind: .string(run.kind),
        ])
    }

    private func finishRun(_ id: String, reason: RunReason, result: ProviderRunResult, stats: ProviderRunStats,
                           deferred: Bool) {
        running[id] = nil
        guard let position = widgets.position(forKey: id) else { return }
        let now = clock.now()
        let outcome: RunOutcome
        switch result {
        case .success(.timeline(let timeline), _):
            outcome = .success(timeline)
            freshTimelines[id] = (timeline, now.wall)
        case .success:
            outcome = .failure(reason: .invalid, detail: "the provider did not answer with a timeline")
        case .failure(let failure):
            outcome = .failure(reason: failure.reason, detail: failure.detail)
        }
        let outcomeName = outcome.name
        // In place, through the position: `widgets[id]?.…` copies the widget out and back in.
        let kind = widgets.modify(at: position) { widget in
            widget.lastRun?.outcome = outcomeName
            return widget.kind
        }
        let tell = { [self] in
            logRun(id, kind: kind, reason: reason, outcome: outcome, result: result, stats: stats, at: now)
            broadcast(.runFinished(widget: id, kind: kind, date: now.wall, reason: reason.rawValue,
                                   outcome: outcomeName, detail: outcome.detail))
        }
        if deferred || isHandling {
            tell()
            followUps.append(.runFinished(id: id, outcome: outcome))
        } else {
            // The runs this exit lets start are spawned first; then this one is told, then the rest.
            handle(.runFinished(id: id, outcome: outcome), prelude: tell)
        }
    }

    // MARK: - Hosts

    /// Tells the entry change; `perform` has already set the widget's current content.
    private func announceEntry(_ id: String, _ entry: TimelineOutline.Entry) {
        guard let position = widgets.position(forKey: id) else { return }
        logger.debug("\(id): current entry is now \(RFC3339.string(from: entry.date))", metadata: metadata(id, [
            JournalField.messageID: JournalMessageID.entryChanged.metadataValue]))
        guard !watchers.isEmpty else { return }
        let kind = widgets[position: position].kind
        // Content this process decoded is sent as it is; other content is parsed first, and sent as null if it
        // does not parse.
        if widgets[position: position].currentContentIsDecoded,
           let content = widgets[position: position].currentContent {
            broadcast(.entryChanged(widget: id, kind: kind, date: entry.date, canonicalContent: content))
        } else {
            let content = widgets[position: position].currentContent
            broadcast(.entryChanged(widget: id, kind: kind, date: entry.date,
                                    content: content.flatMap(JSONValue.init(jsonText:)) ?? .null))
        }
    }

    /// Registers a `Watch` client; returns its id for `unwatch`.
    public func watch(_ filter: WatchMethod.Parameters, send: @escaping (WatchEvent) -> Bool) -> Int {
        nextWatcherID += 1
        watchers[nextWatcherID] = Watcher(filter: filter, send: send)
        return nextWatcherID
    }

    public func unwatch(_ id: Int) {
        watchers[id] = nil
    }

    func broadcast(_ event: WatchEvent) {
        guard !watchers.isEmpty else { return }
        for (id, watcher) in watchers where watcher.filter.matches(widget: event.widget, kind: event.kind) {
            if !watcher.send(event) { watchers[id] = nil }
        }
    }

    // MARK: - Logging

    func metadata(_ id: String, _ extra: Logger.Metadata = [:]) -> Logger.Metadata {
        // `extra` wins over the widget's own fields.
        var fields = extra
        if fields[JournalField.widgetID] == nil { fields[JournalField.widgetID] = .string(id) }
        if fields[JournalField.widgetKind] == nil, let kind = widgets[id]?.kind {
            fields[JournalField.widgetKind] = .string(kind)
        }
        return fields
    }

    private func logDecision(_ decided: RequestDecision, at now: Instant) {
        let id = decided.widget
        // The runs before the request keep their place before its decision, in the journal and in the history.
        writeFoldedRunLine(of: id)
        let at = RFC3339.string(from: now.wall(atMonotonic: decided.decision.at))
        var fields: Logger.Metadata = [
            JournalField.messageID: JournalMessageID.requestDecided.metadataValue,
            JournalField.decision: "\(decided.decision.name)",
            JournalField.nextReload: "\(at)",
            JournalField.tokens: "\(Self.twoDecimals(scheduler.tokens(of: id, at: now) ?? 0))",
        ]
        var text = "\(id): reload request \(decided.decision.name)"
        if let because = decided.decision.because {
            fields[JournalField.because] = "\(because.rawValue)"
            // A run waiting for a slot has no planned time of its own: it starts when a running provider ends.
            text += because == .concurrency ? " until a run slot is free (\(because.phrase))"
                : " until \(at) (\(because.phrase))"
        } else if case .coalesced = decided.decision {
            text += " with the run at \(at)"
        }
        if let reason = scheduler.plannedRun(for: id, at: now)?.reason ?? scheduler.widgets[id]?.inFlight?.reason {
            fields[JournalField.reloadReason] = "\(reason.rawValue)"
        }
        logger.info("\(text)", metadata: metadata(id, fields))
        batch.appendHistory(HistoryRecord(widgetID: id, at: now.wall, monotonic: now.monotonic, event: .decision,
                                          reason: fields[JournalField.reloadReason].map { "\($0)" } ?? "explicit",
                                          outcome: decided.decision.name,
                                          because: decided.decision.because?.rawValue))
        if !watchers.isEmpty, let kind = widgets[id]?.kind {
            broadcast(.decided(kind: kind, date: now.wall,
                               decision: ReloadDecision(widget: id, decision: decided.decision, now: now)))
        }
    }

    /// A run's end line and history line: what `writeRunLine` needs, kept by `runLines` while it is folded.
    private struct RunLine {
        var id: String
        var kind: String
        var reason: RunReason
        var outcome: RunOutcome
        var stats: ProviderRunStats
        var tokens: Double
        var stderrTail: String
        var at: Instant
    }

    /// Writes a run's end line and history line, or folds them (`RunLineFolder`) when it is a success like the
    /// widget's previous line (the same stderr output, most often none) since the last state write. Any other line
    /// of the widget first writes the one kept.
    private func logRun(_ id: String, kind: String, reason: RunReason, outcome: RunOutcome,
                        result: ProviderRunResult, stats: ProviderRunStats, at now: Instant) {
        let line = RunLine(id: id, kind: kind, reason: reason, outcome: outcome, stats: stats,
                           tokens: scheduler.tokens(of: id, at: now) ?? 0, stderrTail: result.stderrTail, at: now)
        guard case .success = outcome else {
            writeFoldedRunLine(of: id)
            writeRunLine(line, earlierRuns: 0)
            return
        }
        switch runLines.fold(id, line, likeness: result.stderrTail) {
        case .folded:
            break
        case .writeNow(let kept):
            if let kept { writeRunLine(kept.line, earlierRuns: kept.earlierRuns) }
            writeRunLine(line, earlierRuns: 0)
        }
    }

    /// The history line the widget's runs folded since the last write will have, if any: for the budget ledger,
    /// which counts runs not yet written.
    func unwrittenFoldedHistory(of id: String) -> HistoryRecord? {
        runLines.kept(id).map { historyRecord(of: $0.line, earlierRuns: $0.earlierRuns) }
    }

    /// A run line's history line, which stands for the run and the `earlierRuns` folded into it.
    private func historyRecord(of line: RunLine, earlierRuns: Int) -> HistoryRecord {
        HistoryRecord(widgetID: line.id, at: line.at.wall, monotonic: line.at.monotonic, event: .run,
                      reason: line.reason.rawValue, outcome: line.outcome.name, detail: line.outcome.detail,
                      runs: earlierRuns + 1)
    }

    /// Writes the widget's folded run line, if one is kept, before another of its lines.
    private func writeFoldedRunLine(of id: String) {
        guard let folded = runLines.take(id) else { return }
        writeRunLine(folded.line, earlierRuns: folded.earlierRuns)
    }

    /// Writes every folded run line: at each state write, so a run's line is at most one write late.
    private func writeFoldedRunLines() {
        for (_, folded) in runLines.takeAll() {
            writeRunLine(folded.line, earlierRuns: folded.earlierRuns)
        }
    }

    /// A run's "run finished" or "run failed" line, and its history line; `earlierRuns` is how many of the widget's
    /// successful runs before it, alike, were folded into it (`RUNS_FOLDED`; the history line's `runs` counts them
    /// with it).
    private func writeRunLine(_ line: RunLine, earlierRuns: Int) {
        batch.appendHistory(historyRecord(of: line, earlierRuns: earlierRuns))
        let stderr = line.stderrTail.isEmpty ? "" : line.stderrTail.trimmingCharacters(in: .whitespacesAndNewlines)
        let tail = stderr.isEmpty ? "" : "; stderr: \(stderr.suffix(400))"
        let (id, kind, stats) = (line.id, line.kind, line.stats)
        // The widget's fields set here, as in `logStart`, into the kept template of this line's keys (taken out
        // while it is filled, so that the writes find its storage unshared).
        let succeeded = line.outcome.isSuccess
        let folded = succeeded && earlierRuns > 0
        let shape = folded ? 4 + (stats.exitStatus == nil ? 0 : 1)
            : (succeeded ? 0 : 2) + (stats.exitStatus == nil ? 0 : 1)
        var fields = runLineTemplates[shape].take()
            ?? MetadataTemplate(keys: Self.runLineKeys(succeeded: succeeded, withExitStatus: stats.exitStatus != nil,
                                                       folded: folded))
        defer { runLineTemplates[shape] = fields }
        fields.set(JournalField.reloadReason, .string(line.reason.rawValue))
        fields.set(JournalField.providerPID, .string(String(stats.pid)))
        fields.set(JournalField.durationUsec, .string(String(Int(stats.duration * 1_000_000))))
        fields.set(JournalField.tokens, .string(Self.twoDecimals(line.tokens)))
        fields.set(JournalField.widgetID, .string(id))
        fields.set(JournalField.widgetKind, .string(kind))
        if let status = stats.exitStatus { fields.set(JournalField.exitStatus, .string(status)) }
        switch line.outcome {
        case .success(let timeline):
            fields.set(JournalField.messageID, JournalMessageID.runFinished.metadataValue)
            fields.set(JournalField.policy, .string(timeline.policy.name))
            let foldedText: String
            if folded {
                fields.set(JournalField.runsFolded, .string(String(earlierRuns)))
                foldedText = String(concatenating: "; ", String(earlierRuns), " earlier successful ",
                                    earlierRuns == 1 ? "run" : "runs", " folded into this line")
            } else {
                foldedText = ""
            }
            // Built in one piece and passed as the message itself: interpolated into a message, it would be copied
            // again.
            let text = String(concatenating: id, ": ", kind, " provider answered ", String(timeline.entries.count),
                              " entries, policy ", Self.describe(timeline.policy), foldedText, tail)
            logger.info(Logger.Message(stringLiteral: text), metadata: fields.metadata)
        case .failure(let failure, let detail):
            fields.set(JournalField.messageID, JournalMessageID.runFailed.metadataValue)
            fields.set(JournalField.failureReason, .string(failure.rawValue))
            logger.warning("\(id): \(kind) provider failed (\(failure)): \(detail)\(tail)", metadata: fields.metadata)
        }
    }

    /// The keys of a run's end line: the widget's and the run's, and the outcome's, in the order `writeRunLine` sets
    /// them.
    private static func runLineKeys(succeeded: Bool, withExitStatus: Bool, folded: Bool) -> [String] {
        [JournalField.reloadReason, JournalField.providerPID, JournalField.durationUsec, JournalField.tokens,
         JournalField.widgetID, JournalField.widgetKind]
            + (withExitStatus ? [JournalField.exitStatus] : [])
            + [JournalField.messageID, succeeded ? JournalField.policy : JournalField.failureReason]
            + (folded ? [JournalField.runsFolded] : [])
    }

    /// `value` with two decimals, as `%.2f` writes it, without `String(format:)` (a few per cent of a run's
    /// time: every end-of-run line carries the tokens left).
    static func twoDecimals(_ value: Double) -> String {
        // Exact only away from a half-hundredth, where value × 100's rounding error cannot change the answer;
        // the rest (and large or non-finite values) go to printf, which rounds the exact binary value.
        let scaled = value * 100
        let fraction = scaled - scaled.rounded(.down)
        guard value.isFinite, abs(value) < 1e6, abs(fraction - 0.5) > 1e-6 else {
            return String(format: "%.2f", value)
        }
        let hundredths = Int64(scaled.rounded())
        let negative = hundredths < 0 || (hundredths == 0 && value.sign == .minus)
        let whole = hundredths.magnitude / 100
        let cents = UInt8(hundredths.magnitude % 100)
        var wholeDigits = 1
        var rest = whole
        while rest >= 10 {
            rest /= 10
            wholeDigits += 1
        }
        let count = (negative ? 1 : 0) + wholeDigits + 3
        // The digits written from the last into the string's own storage (inline, at these lengths): interpolated,
        // the four parts cost ~1 000 instructions a line.
        return String(unsafeUninitializedCapacity: count) { text in
            let zero = UInt8(ascii: "0")
            text[count - 1] = zero + cents % 10
            text[count - 2] = zero + cents / 10
            text[count - 3] = UInt8(ascii: ".")
            var index = count - 4
            rest = whole
            repeat {
                text[index] = zero + UInt8(rest % 10)
                rest /= 10
                index -= 1
            } while rest > 0
            if negative { text[0] = UInt8(ascii: "-") }
            return count
        }
    }

    static func describe(_ policy: ReloadPolicy) -> String {
        if case .after(let date) = policy { return "after \(RFC3339.string(from: date))" }
        return policy.name
    }

    // MARK: - Status

    /// "12 widgets, 1 running, next reload weather/w3 in 4 min".
    public func statusLine(at now: Instant) -> String {
        var text = "\(widgets.count) widget\(widgets.count == 1 ? "" : "s"), \(scheduler.runningCount) running"
        if let (id, plan) = nextPlannedRun(at: now), let kind = widgets[id]?.kind {
            text += ", next reload \(kind)/\(id) \(Self.relative(plan.at - now.monotonic))"
        }
        return text
    }

    /// The earliest planned run across all widgets.
    func nextPlannedRun(at now: Instant) -> (String, PlannedRun)? {
        var best: (String, PlannedRun)?
        for id in scheduler.widgets.keys {
            guard let plan = scheduler.plannedRun(for: id, at: now) else { continue }
            if best == nil || plan.at < best!.1.at || (plan.at == best!.1.at && id < best!.0) { best = (id, plan) }
        }
        return best
    }

    static func relative(_ seconds: Double) -> String {
        if seconds < 1 { return "now" }
        if seconds < 90 { return "in \(Int(seconds.rounded())) s" }
        if seconds < 5_400 { return "in \(Int((seconds / 60).rounded())) min" }
        if seconds < 172_800 { return "in \(Int((seconds / 3_600).rounded())) h" }
        return "in \(Int((seconds / 86_400).rounded())) days"
    }

    // MARK: - Groups

    func groupDirectory(_ group: String) -> URL {
        options.stateDirectory.appendingPathComponent("groups", isDirectory: true)
            .appendingPathComponent(group, isDirectory: true)
    }

    func createGroupDirectories() {
        for group in Set(manifests.manifests.compactMap(\.group)) {
            try? FileManager.default.createDirectory(at: groupDirectory(group), withIntermediateDirectories: true)
        }
    }
}

extension WidgetService {
    /// New settings from a re-read configuration. Budgets keep their tokens (capped at the new burst).
    public func replaceSettings(_ settings: SchedulerSettings) {
        guard settings != scheduler.settings else { return }
        handle(.settingsChanged(settings))
    }

    /// New manifests from a re-read of the provider directories. Widgets of a kind that disappeared stay, and fail
    /// their runs with a clear reason until their kind comes back or they are removed.
    public func replaceManifests(_ manifests: ManifestSet) {
        let kinds = Set(widgets.values.map(\.kind))
        let unservedBefore = kinds.filter { self.manifests.widgetKind($0) == nil }
        self.manifests = manifests
        createGroupDirectories()
        for kind in kinds.sorted() where manifests.widgetKind(kind) == nil {
            logger.warning("kind \(kind) is no longer served by any manifest; its widgets are kept",
                           metadata: [JournalField.widgetKind: "\(kind)"])
        }
        // Widgets of a kind whose manifest is back failed ("spawn") while it was gone, and may be quarantined: an
        // explicit reload lifts quarantine and runs each within its floor and budget, as an admin's own reload would.
        for kind in unservedBefore.sorted() where manifests.widgetKind(kind) != nil {
            logger.notice("kind \(kind) is served again; its widgets are reloaded",
                          metadata: [JournalField.widgetKind: "\(kind)"])
            nextRequestID += 1
            handle(.reloadRequested(.kind(kind), foreground: false, request: nextRequestID))
        }
    }

    /// Kills every provider run in flight (the daemon is stopping). Their results are not waited for: the runs stay
    /// pending in the saved state and run again after the restart, their tokens still spent.
    public func terminateRuns() {
        for handle in running.values { handle.terminate() }
    }
}
