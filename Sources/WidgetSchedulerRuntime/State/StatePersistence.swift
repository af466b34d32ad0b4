import Foundation
import Logging
import WidgetProtocol
import WidgetSchedulerCore

/// The service's state on its way to and from the store: the widgets restored at start, the changes collected since
/// the last write (a `StateBatch`, the widgets whose schedules changed, the timelines received), and the stored
/// timelines read back when their contents are needed.
///
/// Everything here runs on the event loop's one thread. The changes are written by `flush`, when the daemon's
/// `WritePacer` says; until then nothing is lost while the process lives. A client's state-changing request has its
/// reply wait for the write that holds its change (`whenWritten`). A failed write keeps the changes, makes the daemon
/// degraded (`health`), is logged once, and is retried on a backoff.
final class StatePersistence {
    let store: StateStoring
    /// The kernel's boot id (`DaemonClock.bootID`): every write stamps it, so a restart knows whether the monotonic
    /// clock it saved still counts from the same boot.
    let bootID: String
    var logger: Logger
    /// A widget's journal fields, for the lines about its timeline (the service knows its kind).
    var widgetMetadata: (String) -> Logger.Metadata = { [JournalField.widgetID: .string($0)] }
    /// The changes of this turn and those not yet written.
    var batch = StateBatch()
    /// Timelines received since the last successful write, with their contents and arrival: the store has them only
    /// once they are written. Older timelines' contents are read from the store when needed.
    private(set) var freshTimelines: [String: (timeline: Timeline, receivedAt: Date)] = [:]
    /// Widgets whose scheduler state changed since the last successful write. Their records are encoded when
    /// written, once per write, not once per change: a busy widget changes state twice per run.
    private var unwrittenSchedules: Set<String> = []
    /// Whether writes succeed, and when to try again if not.
    private(set) var health = StateWriteHealth()
    /// Replies waiting for the next write: each gets nil once it committed, or the error to send.
    private var awaitingWrite: [(ControlError?) -> Void] = []
    /// Whether the run-start journal failed its last append, so that a spell of failures is logged once.
    private var runStartsFailing = false

    init(store: StateStoring, bootID: String, logger: Logger) {
        self.store = store
        self.bootID = bootID
        self.logger = logger
    }

    // MARK: - Restoring

    /// What a restart restores: the widgets, and the next number a new widget's id takes.
    struct Restored {
        var nextWidgetNumber: Int
    }

    /// Reads every widget from the store, one row at a time and keeping only what scheduling needs (entry dates, not
    /// contents): `reserve` gets the count first, then `restore` each widget with its schedule, brought to `now`. A
    /// run that was in flight is pending again, its token still spent and its run in its place paid for by it, and its
    /// last run `interrupted`.
    func restore(settings: SchedulerSettings, at now: Instant, lastStopWasClean: Bool = true,
                 reserve: (Int) -> Void, restore: (ManagedWidget, WidgetSchedule) -> Void) throws -> Restored {
        let meta = try store.allMeta()
        let saved = Self.savedClock(meta["clock"])
        if saved == nil, let text = meta["clock"] {
            let message = "the stored clock stamp \"\(text)\" (meta clock) is not a boot id, a monotonic reading and "
                + "a supported date; the widgets' stored clock readings are taken as they are"
            logger.error("\(message)")
        }
        let sameBoot = saved?.boot == bootID
        var nextWidgetNumber = 1
        if let text = meta["nextWidgetNumber"] {
            if let number = Int(text), Self.widgetNumbers.contains(number) {
                nextWidgetNumber = number
            } else {
                let message = "the stored nextWidgetNumber \"\(text)\" is not a number from 1 to "
                    + "\(Self.widgetNumbers.upperBound); numbering on from the widgets' ids"
                logger.error("\(message)")
            }
        }
        reserve(try store.widgetCount())
        try store.forEachStoredWidget(timelines: .outlines) { item in
            var record = item.widget
            if let error = StoredValueError.problem(date: record.addedAt, "addedAt") {
                logger.error("widget \(record.id): its stored \(error); taking the start time instead",
                             metadata: [JournalField.widgetID: "\(record.id)"])
                record.addedAt = now.wall
            }
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
                                  budget: RefreshBudget(fullAt: now.monotonic, settings: settings))
            schedule.timeline = storedOutline(item)
            if !lastStopWasClean, schedule.inFlight != nil {
                schedule = schedule.afterDaemonDeath(threshold: settings.daemonDeathQuarantineThreshold)
                persisted?.lastRun?.outcome = RunFailureReason.daemonDied.rawValue
                if schedule.quarantined { quarantinedForDaemonDeaths(schedule) }
            }
            // Read after a death is counted: a widget quarantined for its deaths has no run in place of this one.
            let interrupted = schedule.inFlight
            if let saved {
                schedule = schedule.restored(savedAt: saved.instant, now: now, sameBoot: sameBoot)
            }
            if let interrupted, let pending = schedule.pending, pending.alreadyPaid {
                resumes(interrupted, as: pending, of: schedule)
            }
            if persisted?.lastRun?.outcome == nil, persisted?.lastRun != nil {
                persisted?.lastRun?.outcome = RunFailureReason.interrupted.rawValue
            }
            restore(ManagedWidget(id: record.id, kind: record.kind, family: record.family,
                                  configuration: configuration, addedAt: record.addedAt,
                                  lastRun: persisted?.lastRun, currentContent: persisted?.currentContent,
                                  currentImages: persisted?.currentImages ?? [:]),
                    schedule)
            if let number = Int(record.id.dropFirst()), number >= 0, number < Self.widgetNumbers.upperBound {
                nextWidgetNumber = max(nextWidgetNumber, number + 1)
            }
        }
        return Restored(nextWidgetNumber: nextWidgetNumber)
    }

    /// Logs a widget quarantined at start because its runs were in flight at the daemon's last deaths.
    private func quarantinedForDaemonDeaths(_ schedule: WidgetSchedule) {
        let text = "\(schedule.id): quarantined: a run of it was in flight at each of the daemon's last "
            + "\(schedule.interruptedByDaemonDeaths) deaths; an explicit, foreground or configuration request lifts it"
        logger.warning("\(text)", metadata: [
            JournalField.widgetID: "\(schedule.id)", JournalField.widgetKind: "\(schedule.kind)",
            JournalField.messageID: JournalMessageID.quarantined.metadataValue,
            JournalField.failureReason: "\(RunFailureReason.daemonDied)"])
    }

    /// Logs a budgeted run the stop interrupted, whose token the run in its place uses: one line per such widget, at
    /// most one per run slot.
    private func resumes(_ interrupted: WidgetSchedule.RunInFlight, as pending: PendingRun,
                         of schedule: WidgetSchedule) {
        let text = "\(schedule.id): its \(interrupted.reason.rawValue) run was in flight when the daemon stopped; the "
            + "\(pending.reason.rawValue) run in its place spends no second token"
        logger.info("\(text)", metadata: [
            JournalField.widgetID: "\(schedule.id)", JournalField.widgetKind: "\(schedule.kind)",
            JournalField.reloadReason: "\(pending.reason.rawValue)",
            JournalField.messageID: JournalMessageID.interruptedRunResumed.metadataValue])
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

    /// The numbers of ids the daemon gives (`w1`, `w2`…): far more than any store holds, and far from overflowing.
    static let widgetNumbers = 1...1_000_000_000_000_000

    /// The clock stamp of the last write (`meta clock`: boot id, monotonic and wall seconds), or nil when absent or
    /// out of range.
    static func savedClock(_ text: String?) -> (boot: String, instant: Instant)? {
        let parts = text?.split(separator: " ") ?? []
        guard parts.count == 3, let monotonic = Double(parts[1]), let wall = Double(parts[2]),
              SupportedRange.contains(monotonic: monotonic),
              SupportedRange.contains(date: Date(timeIntervalSince1970: wall)) else { return nil }
        return (String(parts[0]), Instant(monotonic: monotonic, wall: Date(timeIntervalSince1970: wall)))
    }

    // MARK: - Timelines

    /// Keeps a timeline just received, to be written by the next `flush`.
    func received(_ timeline: Timeline, for id: String, at date: Date) {
        freshTimelines[id] = (timeline, date)
    }

    /// The widget's newest timeline with its contents: this turn's if not yet written, else the store's.
    func fullTimeline(of id: String) -> Timeline? {
        freshTimelines[id]?.timeline ?? storedTimelines(of: [id])[id]
    }

    /// The widgets' stored timelines with their contents, read in one go, by widget id. One the store cannot give is
    /// logged and left out.
    func storedTimelines(of ids: [String]) -> [String: Timeline] {
        var timelines: [String: Timeline] = [:]
        for (id, record) in storedRecords(of: ids) {
            do {
                timelines[id] = try Timeline(storedJSON: record.timeline)
            } catch {
                logger.error("\(id): cannot read its stored timeline: \(error)", metadata: widgetMetadata(id))
            }
        }
        return timelines
    }

    /// The stored entries of the widgets at the dates given, read in one go: each widget's entries found, in the
    /// order asked (`Timeline.storedEntry`, which parses those entries alone). A timeline the store cannot give is
    /// logged and left out.
    func storedEntries(_ wanted: [(id: String, date: Date)]) -> [String: [TimelineEntry]] {
        var datesByWidget: [String: [Date]] = [:]
        for (id, date) in wanted { datesByWidget[id, default: []].append(date) }
        var entries: [String: [TimelineEntry]] = [:]
        for (id, record) in storedRecords(of: Array(datesByWidget.keys)) {
            do {
                entries[id] = try datesByWidget[id, default: []].compactMap {
                    try Timeline.storedEntry(dated: $0, in: record.timeline)
                }
            } catch {
                logger.error("\(id): cannot read its stored timeline: \(error)", metadata: widgetMetadata(id))
            }
        }
        return entries
    }

    /// The widgets' timeline rows, read in one go; none when the store cannot give them, which is logged.
    private func storedRecords(of ids: [String]) -> [String: TimelineRecord] {
        guard !ids.isEmpty else { return [:] }
        do {
            return try store.timelines(widgetIDs: ids)
        } catch {
            let widgets = ids.count == 1 ? ids[0] : "\(ids.count) widgets"
            logger.error("cannot read the stored timeline of \(widgets): \(error)",
                         metadata: ids.count == 1 ? widgetMetadata(ids[0]) : [:])
            return [:]
        }
    }

    // MARK: - Writing

    /// Marks the widget's scheduler state to be written by the next `flush`.
    func persist(_ id: String) {
        unwrittenSchedules.insert(id)
    }

    /// Drops everything unwritten of a removed widget, and deletes it with its timeline and history.
    func forget(_ id: String) {
        freshTimelines[id] = nil
        unwrittenSchedules.remove(id)
        batch.deleteWidget(id: id)
    }

    /// Whether changes are waiting for `flush`.
    var hasUnwrittenChanges: Bool { !batch.isEmpty || !unwrittenSchedules.isEmpty || !freshTimelines.isEmpty }

    /// Whether replies wait for the next write.
    var hasRepliesAwaitingWrite: Bool { !awaitingWrite.isEmpty }

    /// Calls `completion` once the changes made so far are committed (nil), or with `StateNotWritten` if the write
    /// that should hold them fails; at once if nothing waits to be written.
    func whenWritten(_ completion: @escaping (ControlError?) -> Void) {
        guard hasUnwrittenChanges else {
            completion(nil)
            return
        }
        awaitingWrite.append(completion)
    }

    /// Writes the changes since the last write in one transaction, with the clock stamp used to restore after a
    /// restart: each changed widget's state as `scheduleRecord` gives it (nil once the widget is gone), and the fresh
    /// timelines of the widgets still there (`isWidget`). A failed write keeps everything for the next, and the
    /// replies waiting for it get `StateNotWritten`.
    func flush(at now: Instant, nextWidgetNumber: Int, isWidget: (String) -> Bool,
               scheduleRecord: (String) -> WidgetScheduleRecord?) {
        guard hasUnwrittenChanges else {
            answerAwaiting(nil)
            return
        }
        for id in unwrittenSchedules {
            if let record = scheduleRecord(id) { batch.upsertSchedule(record) }
        }
        for (id, fresh) in freshTimelines where isWidget(id) {
            batch.upsertTimeline(TimelineRecord(widgetID: id, timeline: fresh.timeline.storedJSON(),
                                                receivedAt: fresh.receivedAt, currentEntryIndex: nil,
                                                outline: TimelineOutline(fresh.timeline).compactEncoded()))
        }
        batch.setMeta("clock", "\(bootID) \(now.monotonic) \(now.wall.timeIntervalSince1970)")
        batch.setMeta("nextWidgetNumber", String(nextWidgetNumber))
        do {
            try store.apply(batch)
        } catch {
            // Keep the batch: the next attempt retries it with the later changes merged in; nothing is lost while the
            // process lives.
            failed(at: now, cause: "\(error)")
            answerAwaiting(.stateNotWritten(cause: "\(error)", applied: true))
            return
        }
        batch.removeAll()
        unwrittenSchedules.removeAll(keepingCapacity: true)
        freshTimelines.removeAll(keepingCapacity: true)
        if let ended = health.succeeded(at: now.monotonic) {
            let seconds = TimeSpan.text(now.monotonic - ended.since)
            let text = "state written again after \(seconds) and \(ended.attempts) failed attempt(s); the daemon is "
                + "no longer degraded"
            logger.notice("\(text)", metadata: [
                              JournalField.messageID: JournalMessageID.stateWrittenAgain.metadataValue])
        }
        answerAwaiting(nil)
    }

    /// Notes a failed write (of the database or of the run-start journal); the first of a spell is logged, once.
    func failed(at now: Instant, cause: String) {
        guard health.failed(at: now.monotonic, cause: cause) else { return }
        let text = "cannot write the state: \(cause); the daemon is degraded: changes are kept in memory and "
            + "written when a retry succeeds, requests that change state are refused until then, and a stop before "
            + "then loses them"
        logger.error("\(text)", metadata: [
                         JournalField.messageID: JournalMessageID.stateNotWritten.metadataValue,
                         JournalField.failureReason: .string(cause)])
    }

    /// Whether a write may be attempted at `now` for the scheduler's own needs (a run's spend the journal could not
    /// take): always while writes succeed, else when the backoff allows.
    func mayAttemptWrite(at now: Instant) -> Bool {
        guard let next = health.nextAttempt else { return true }
        return now.monotonic >= next
    }

    /// Whether a client's request may have a write attempted for it at `now` (`StateWriteHealth`).
    func mayAttemptWriteForClient(at now: Instant) -> Bool {
        health.mayAttemptForClient(at: now.monotonic)
    }

    private func answerAwaiting(_ error: ControlError?) {
        guard !awaitingWrite.isEmpty else { return }
        let waiting = awaitingWrite
        awaitingWrite = []
        for completion in waiting { completion(error) }
    }

    /// Makes the schedules of runs about to start survive a kill before the runs start (`StateStoring`). Returns
    /// false if the store cannot, and the caller commits everything instead; the first failure of a spell is logged.
    func recordRunStarts(_ records: [WidgetScheduleRecord]) -> Bool {
        do {
            try store.recordRunStarts(records)
            runStartsFailing = false
            return true
        } catch {
            if !runStartsFailing {
                runStartsFailing = true
                let text = "cannot record the runs' spent tokens (\(error)); the state is committed before they "
                    + "start instead, while the store allows"
                logger.error("\(text)")
            }
            return false
        }
    }
}
