import Foundation
import Logging
import WidgetProtocol
import WidgetProviders
import WidgetSchedulerCore

/// The daemon's logic around the pure scheduler: it feeds the scheduler events with `now`, and carries out the
/// actions it returns through small effects (launcher, timer, store, group data, log), so it runs the same against
/// fakes.
///
/// Its parts, one job each: `StatePersistence` restores the widgets and writes their changes, `RunReporter` tells the
/// journal and the history, `WatchHub` tells hosts. Here the service drives the scheduler; in files of their own
/// (`WidgetService+…`): the runs, what watchers are told, the state's writes as callers see them, the control API's
/// requests and queries (those a provider answers apart), group data, images and the status text. Everything here
/// runs on the event loop's one thread. Changes are collected and written by `flush()`, when the daemon's
/// `WritePacer` says.
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

    public let options: Options
    public private(set) var scheduler: Scheduler
    public private(set) var manifests: ManifestSet
    let clock: DaemonClock
    let launcher: ProviderLauncher
    let timer: WakeupTimer
    let groupData: GroupDataStoring
    var logger: Logger
    let startedAt: Date
    let state: StatePersistence
    let reporter: RunReporter
    let hub = WatchHub()
    /// The image files (`WidgetService+Images`); nil: runs get no image directory, and entries no images.
    let images: ImageStoring?
    /// Who refers to which stored image: widgets' stored entries and kinds' kept previews.
    var imageReferences = ImageReferences()
    /// The hashes of the images of each widget's newest timeline (its current entry's are in `ManagedWidget`).
    var timelineImageHashes: [String: Set<String>] = [:]
    /// Images no one refers to any more, removed once the state that no longer names them is committed.
    var releasedImages: Set<String> = []
    /// The previews whose images are kept, per kind.
    var keptPreviews = KeptPreviews()

    var widgets = DenseTable<ManagedWidget>()
    var running: [String: ProviderRunHandle] = [:]
    /// Callers' provider requests waiting for the scheduler's decision, by caller, and their runs, by key
    /// (`WidgetService+ProviderRequests`).
    var providerRequestCallers: [Int: ProviderRequestCaller] = [:]
    var providerRequestRuns: [ProviderRequestKey: ProviderRequestRun] = [:]
    var nextRequestID = 0
    var nextWidgetNumber = 1
    /// Events produced while carrying out actions, handled right after (never re-entrantly).
    var followUps: [SchedulerEvent] = []
    var isHandling = false
    /// Whether the state is written as soon as the event being handled is, not when the daemon's `WritePacer` says.
    var writeWhenHandled = false
    /// Counts handled events, so the daemon knows when its STATUS= line may have changed.
    public private(set) var revision = 0

    /// A service on `store`, whose group data files are `groupData`'s (by default under the state directory's
    /// `groups/`). `clock` gives the boot id the state's clock stamp carries.
    public init(
        options: Options, settings: SchedulerSettings, manifests: ManifestSet, clock: DaemonClock,
        launcher: ProviderLauncher, timer: WakeupTimer, store: StateStoring, groupData: GroupDataStoring? = nil,
        images: ImageStoring? = nil, logger: Logger
    ) {
        self.images = images
        self.options = options
        self.scheduler = Scheduler(settings: settings)
        self.manifests = manifests
        self.clock = clock
        self.launcher = launcher
        self.timer = timer
        self.groupData = groupData ?? GroupDataDirectory(
            root: options.stateDirectory.appendingPathComponent("groups", isDirectory: true))
        self.logger = logger
        self.startedAt = clock.now().wall
        state = StatePersistence(store: store, bootID: clock.bootID, logger: logger)
        reporter = RunReporter(logger: logger)
        state.widgetMetadata = { [unowned self] id in metadata(id) }
    }

    // MARK: - Loading and saving

    /// Restores every widget from the store. A reload that came due while the daemon was down runs after start,
    /// through the usual rules; a run that was in flight is pending again, its token still spent. Unless the last
    /// stop was clean, a run in flight was in flight when the daemon died: its widget counts one more such death in a
    /// row, and is quarantined at `daemonDeathQuarantineThreshold` (`WidgetSchedule.afterDaemonDeath`).
    public func load(lastStopWasClean: Bool = true) throws {
        let now = clock.now()
        let restored = try state.restore(settings: scheduler.settings, at: now, lastStopWasClean: lastStopWasClean,
                                         reserve: { count in
            widgets.reserveCapacity(count)
            scheduler.reserveCapacity(count)
        }, restore: { widget, schedule in
            widgets[widget.id] = widget
            scheduler.restore(schedule, at: now)
        })
        nextWidgetNumber = max(nextWidgetNumber, restored.nextWidgetNumber)
        createGroupDirectories()
        restoreImageReferences()
        _ = handle(.tick)
    }

    /// Writes the changes since the last write in one transaction, with the clock stamp used to restore after a
    /// restart; the run lines folded since the last write go with them. The replies waiting for the write are sent
    /// (or get `StateNotWritten`). A failure makes the service degraded until a write succeeds.
    public func flush() {
        reporter.writeFoldedRunLines(into: &state.batch)
        let wasDegraded = state.health.isDegraded
        let now = clock.now()
        state.flush(at: now, nextWidgetNumber: nextWidgetNumber, isWidget: { widgets[$0] != nil },
                    scheduleRecord: { scheduleRecord($0, at: now) })
        removeReleasedImages()
        // The status line says whether the service is degraded.
        if state.health.isDegraded != wasDegraded { revision &+= 1 }
    }

    /// The widget's scheduler state as stored, at `now`; nil once the widget is gone.
    func scheduleRecord(_ id: String, at now: Instant) -> WidgetScheduleRecord? {
        guard let widget = widgets[id], var schedule = scheduler.widgets[id] else { return nil }
        schedule.timeline = nil
        let data = PersistedWidgetState(schedule: schedule, lastRun: widget.lastRun,
                                        currentContent: widget.currentContent,
                                        currentImages: widget.currentImages).encoded()
        let next = scheduler.plannedRun(for: id, at: now).map { now.wall(atMonotonic: $0.at) }
        return WidgetScheduleRecord(widgetID: id, state: data, nextDue: next, quarantined: schedule.quarantined)
    }

    // MARK: - Driving the scheduler

    /// Hands one event to the scheduler at the current instant and carries out its actions. Returns the decisions
    /// made for this event's request, if it was one.
    ///
    /// `ending` is the run whose end caused the event (`runFinished`): it is told once the event's runs are spawned
    /// and before anything else, so the spawns wait for no logging.
    @discardableResult
    func handle(_ event: SchedulerEvent, ending: RunEnd? = nil) -> [RequestDecision] {
        precondition(!isHandling, "WidgetService.handle is not re-entrant")
        isHandling = true
        defer { isHandling = false }
        var decisions: [RequestDecision] = []
        var events = [event]
        var ending = ending
        while !events.isEmpty {
            let now = clock.now()
            let next = events.removeFirst()
            let decided = perform(scheduler.handle(next, at: now), at: now, ending: ending)
            if decisions.isEmpty { decisions = decided } else { decisions += decided }
            ending = nil
            events += followUps
            followUps = []
        }
        armTimer()
        revision &+= 1
        if writeWhenHandled {
            writeWhenHandled = false
            flush()
        }
        return decisions
    }

    /// The timer fired, or the wall clock changed.
    public func tick() {
        handle(.tick)
    }

    func armTimer() {
        let wakeup = scheduler.wakeup()
        timer.arm(at: wakeup?.at, accuracy: wakeup?.accuracy ?? 0)
    }

    /// Carries out one event's actions in three passes: the state changes (persisted, and the spends of the runs
    /// to start recorded where a kill cannot take them), then the spawns, then the telling (the run that ended,
    /// journal, watchers), in the actions' order. A spawn thus follows a provider's exit after only the work that
    /// decides it. Returns the request's decisions among the actions.
    private func perform(_ actions: [SchedulerAction], at now: Instant, ending: RunEnd?) -> [RequestDecision] {
        // Gathered in a local array: appending to a property of the service checks its exclusive access each time,
        // once per widget for a kind's `Reload`.
        var decisions: [RequestDecision] = []
        // With each widget's position in `widgets`, found once: no widget is removed until the runs are launched.
        var starts: [(id: String, position: Int, reason: RunReason)] = []
        var requestStarts: [ProviderRequestKey] = []
        // A widget's actions come together (a finished run's state, its entry, its state again): its id is noted
        // for the write once, not hashed into the set for each.
        var persisted: String?
        func persistOnce(_ id: String) {
            guard id != persisted else { return }
            state.persist(id)
            persisted = id
        }
        // The stored entries changing now, read in one go: widgets whose entries fall on the same instants (on the
        // minute, say) change together, and reading the store once per widget would dominate the turn.
        var changing: [(id: String, date: Date)] = []
        for index in actions.indices {
            if case .entryChanged(let id, let entry) = actions[index], state.freshTimelines[id] == nil {
                changing.append((id, entry.date))
            }
        }
        let stored = state.storedEntries(changing)
        for index in actions.indices {
            // A request's decisions change no state here, and are most of a large request's actions (one per widget
            // for a kind's `Reload`): skipped on the tag alone, not copied out.
            if case .decided = actions[index] { continue }
            switch actions[index] {
            case .startRun(let id, let reason):
                persistOnce(id)
                guard let position = widgets.position(forKey: id) else { break }
                starts.append((id, position, reason))
                widgets[position: position].lastRun = .init(startedAt: now.wall, reason: reason, outcome: nil)
            case .entryChanged(let id, let entry):
                guard let position = widgets.position(forKey: id) else { break }
                let fresh = state.freshTimelines[id]?.timeline
                let current = (fresh?.entries ?? stored[id])?.first { $0.date == entry.date }
                let imagesChanged = widgets.modify(at: position) { widget in
                    widget.currentContent = current?.content
                    widget.currentContentIsDecoded = fresh != nil
                    let images = current?.images ?? [:]
                    defer { widget.currentImages = images }
                    return images != widget.currentImages
                }
                if imagesChanged { updateImageReferences(of: id) }
            case .stateChanged(let id):
                persistOnce(id)
            case .providerRequestDecided(let caller, let key, let admission):
                decided(caller: caller, key: key, admission: admission)
            case .startProviderRequest(let key):
                requestStarts.append(key)
            case .decided, .backedOff, .quarantined, .budgetExhausted, .wallClockJumped:
                break
            }
        }
        if !starts.isEmpty { recordSpends(of: starts, at: now) }
        let launched = starts.compactMap { launchRun($0.id, at: $0.position, reason: $0.reason, at: now) }
        for key in requestStarts { launchProviderRequest(key) }
        if let ending { tell(ending) }
        for action in actions {
            switch action {
            case .decided(let decided):
                if decisions.isEmpty { decisions.reserveCapacity(actions.count) }
                decisions.append(decided)
                tell(decided, at: now)
            case .entryChanged(let id, let entry):
                announceEntry(id, entry)
            case .backedOff(let id, let failures, let until):
                reporter.backedOff(id, kind: widgets[id]?.kind, failures: failures,
                                   until: now.wall(atMonotonic: until))
            case .quarantined(let id, let failures):
                reporter.quarantined(id, kind: widgets[id]?.kind, failures: failures,
                                     reason: widgets[id]?.lastRun?.outcome ?? "")
            case .budgetExhausted(let id, let until):
                reporter.budgetExhausted(id, kind: widgets[id]?.kind, nextToken: now.wall(atMonotonic: until),
                                         tokens: scheduler.tokens(of: id, at: now) ?? 0)
            case .wallClockJumped(let delta):
                reporter.wallClockJumped(by: delta)
            case .startRun, .stateChanged, .providerRequestDecided, .startProviderRequest:
                break
            }
        }
        for run in launched {
            // A run still going once it has lasted a moment gets a "running" line then, with its pid; a quicker one
            // only its end-of-run line, which carries the same fields: one line a run rather than two.
            run.handle.whenLasting { [weak self] pid in self?.logStart(run, pid: pid) }
        }
        return decisions
    }

    /// A widget's journal fields, `extra` winning over them.
    func metadata(_ id: String, _ extra: Logger.Metadata = [:]) -> Logger.Metadata {
        RunReporter.metadata(id, kind: widgets[id]?.kind, extra)
    }

    /// Creates the group data directories of every manifest's group.
    func createGroupDirectories() {
        groupData.createDirectories(for: Set(manifests.manifests.compactMap(\.group)))
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
}
