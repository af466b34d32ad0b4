import Foundation
import WidgetSchedulerCore
import GRDB

extension StateStore {
    /// Deletes a widget's lines beyond the newest `?2`: an index seek on (widgetID, id), then `?2` index steps.
    static let historyTrimSQL = """
        DELETE FROM history WHERE widgetID = ?1 AND id <= (
            SELECT id FROM history WHERE widgetID = ?1 ORDER BY id DESC LIMIT 1 OFFSET ?2)
        """

    /// Deletes at most `?2` lines older than `?1`, found through the index on `at`.
    static let historyExpireSQL =
        "DELETE FROM history WHERE id IN (SELECT id FROM history WHERE at < ?1 ORDER BY at LIMIT ?2)"

    /// Applies every change of `batch` in one transaction: either all of it is committed, or, if any statement
    /// fails, none of it is and the error is thrown.
    ///
    /// History lines for a widget that is in neither the store nor the batch are dropped rather than failing the
    /// batch. After the appends, each widget that received lines is trimmed to `historyLimitPerWidget`, and at most
    /// `historyAgePruneChunk` lines older than `historyMaxAge` (against the newest appended line) are removed, so
    /// pruning costs a few index steps per turn and never a full scan.
    public func apply(_ batch: StateBatch) throws {
        guard !batch.isEmpty else { return }
        let journalCovered = runStartJournal.lastSequence
        try databaseQueue.write { db in
            try deleteWidgets(batch.deletedWidgetIDs, db)
            // Sorted so that widgets added in one turn get row ids, and so load order, by date added, then id.
            try upsertWidgets(batch.widgets.values.sorted { ($0.addedAt, $0.id) < ($1.addedAt, $1.id) }, db)
            try upsertSchedules(batch.schedules.values, db)
            try upsertTimelines(batch.timelines.values, db)
            try updateCurrentEntryIndexes(batch.currentEntryIndexes, db)
            try replaceImageReferences(batch.imageReferences, db)
            try appendHistory(batch.history, db)
            try writeGroupData(batch.groupData, db)
            try writeMeta(batch.meta, db)
            if journalCovered > runStartJournal.appliedSequence {
                try writeMeta([RunStartJournal.appliedKey: String(journalCovered)], db)
            }
        }
        runStartJournal.covered(upTo: journalCovered)
        if let checkpointer, let every = options.backgroundCheckpointEveryCommits {
            commitsSinceCheckpointRequest += 1
            if commitsSinceCheckpointRequest >= every {
                commitsSinceCheckpointRequest = 0
                checkpointer.request()
            }
        }
    }

    private func replaceImageReferences(_ references: [String: Set<String>], _ db: Database) throws {
        guard !references.isEmpty else { return }
        let delete = try db.cachedStatement(sql: "DELETE FROM image_reference WHERE widgetID = ?")
        // A widget deleted meanwhile is skipped: its row is gone, and the reference would fail its foreign key.
        let insert = try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO image_reference (widgetID, sha256) SELECT ?1, ?2 WHERE EXISTS (
                SELECT 1 FROM widget WHERE id = ?1)
            """)
        for (widgetID, hashes) in references {
            try delete.execute(arguments: [widgetID])
            for hash in hashes.sorted() { try insert.execute(arguments: [widgetID, hash]) }
        }
    }

    private func deleteWidgets(_ ids: Set<String>, _ db: Database) throws {
        guard !ids.isEmpty else { return }
        let statement = try db.cachedStatement(sql: "DELETE FROM widget WHERE id = ?")
        for id in ids {
            try statement.execute(arguments: [id])
        }
    }

    private func upsertWidgets(_ widgets: [WidgetRecord], _ db: Database) throws {
        guard !widgets.isEmpty else { return }
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO widget (id, kind, family, configuration, addedAt) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, family = excluded.family,
                    configuration = excluded.configuration, addedAt = excluded.addedAt
                """)
        for widget in widgets {
            try statement.execute(arguments: [
                widget.id, widget.kind, widget.family, widget.configuration,
                widget.addedAt.timeIntervalSinceReferenceDate,
            ])
        }
    }

    /// Makes the schedules survive a `kill -9` before the runs they pay for start, without a commit: they are
    /// appended to the run-start journal (one write(2)), and the next `apply(_:)`, whose batch must hold them or
    /// newer states of the same widgets, covers them. Opening the store after a kill folds them into the database.
    public func recordRunStarts(_ schedules: [WidgetScheduleRecord]) throws {
        try runStartJournal.append(schedules)
    }

    /// Folds the journal's records that no commit covered (a kill came between a spawn and its turn's commit) into
    /// the database, for widgets it still holds, and marks them covered.
    func recoverRunStarts() throws {
        let pending = runStartJournal.pending
        if let dropped = runStartJournal.droppedTail {
            runStartRecovery = "\(runStartJournal.path): bytes \(dropped.lowerBound)–\(dropped.upperBound) were not a "
                + "whole record (a write cut short by a crash or power loss) and were dropped; the run starts before "
                + "them are kept"
        }
        guard let last = pending.last?.sequence else { return }
        let restored = try databaseQueue.write { db -> Int in
            let exists = try db.cachedStatement(sql: "SELECT 1 FROM widget WHERE id = ?")
            var latest: [String: WidgetScheduleRecord] = [:]
            for record in pending { latest[record.schedule.widgetID] = record.schedule }
            var present: [String: WidgetScheduleRecord] = [:]
            for (id, schedule) in latest where try Bool.fetchOne(exists, arguments: [id]) != nil {
                present[id] = schedule
            }
            try upsertSchedules(present.values, db)
            try writeMeta([RunStartJournal.appliedKey: String(last)], db)
            return present.count
        }
        runStartJournal.covered(upTo: last)
        let folded = "\(runStartJournal.path): \(Counted.phrase(pending.count, "run start")) of "
            + "\(Counted.phrase(restored, "widget")), journaled but "
            + "not committed when the daemon last stopped, were restored (their tokens stay spent)"
        runStartRecovery = runStartRecovery.map { $0 + "; " + folded } ?? folded
    }

    private func upsertSchedules(_ schedules: Dictionary<String, WidgetScheduleRecord>.Values, _ db: Database) throws {
        guard !schedules.isEmpty else { return }
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO widget_schedule (widgetID, state, nextDue, quarantined) VALUES (?, ?, ?, ?)
                ON CONFLICT (widgetID) DO UPDATE SET state = excluded.state, nextDue = excluded.nextDue,
                    quarantined = excluded.quarantined
                """)
        for schedule in schedules {
            try statement.execute(arguments: [
                schedule.widgetID, schedule.state, schedule.nextDue?.timeIntervalSinceReferenceDate,
                schedule.quarantined,
            ])
        }
    }

    private func upsertTimelines(_ timelines: Dictionary<String, TimelineRecord>.Values, _ db: Database) throws {
        guard !timelines.isEmpty else { return }
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO timeline (widgetID, timeline, receivedAt, currentEntryIndex, outline) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (widgetID) DO UPDATE SET timeline = excluded.timeline, receivedAt = excluded.receivedAt,
                    currentEntryIndex = excluded.currentEntryIndex, outline = excluded.outline
                """)
        for timeline in timelines {
            try statement.execute(arguments: [
                timeline.widgetID, timeline.timeline, timeline.receivedAt.timeIntervalSinceReferenceDate,
                timeline.currentEntryIndex, timeline.outline,
            ])
        }
    }

    private func updateCurrentEntryIndexes(_ indexes: [String: Int?], _ db: Database) throws {
        guard !indexes.isEmpty else { return }
        let statement = try db.cachedStatement(sql: "UPDATE timeline SET currentEntryIndex = ? WHERE widgetID = ?")
        for (widgetID, index) in indexes {
            try statement.execute(arguments: [index, widgetID])
        }
    }

    private func appendHistory(_ records: [HistoryRecord], _ db: Database) throws {
        guard !records.isEmpty else { return }
        // Several lines a statement: one statement a line gave each line its own step, halt and AUTOINCREMENT
        // bookkeeping, most of the cost of writing the history of a busy daemon.
        var newest = -Double.infinity
        var widgetIDs: Set<String> = []
        var start = 0
        while start < records.count {
            let rows = Self.historyInsertRows(forRemaining: records.count - start)
            let insert = try db.cachedStatement(sql: Self.historyInsertSQL[rows.trailingZeroBitCount])
            // A literal a line, appended: GRDB converts a literal's values in code specialized for them, at about
            // half the cost of its generic initializer over one array of all of them.
            var arguments = StatementArguments()
            for record in records[start..<start + rows] {
                let at = record.at.timeIntervalSinceReferenceDate
                arguments += [
                    record.widgetID, at, record.monotonic, record.event.rawValue, record.reason, record.outcome,
                    // At least 1, as the column's CHECK wants: one line out of range must not fail every write.
                    record.because, record.detail, max(1, record.runs),
                ]
                newest = max(newest, at)
                widgetIDs.insert(record.widgetID)
            }
            try insert.execute(arguments: arguments)
            start += rows
        }
        let trim = try db.cachedStatement(sql: Self.historyTrimSQL)
        for widgetID in widgetIDs {
            try trim.execute(arguments: [widgetID, options.historyLimitPerWidget])
        }
        let expire = try db.cachedStatement(sql: Self.historyExpireSQL)
        try expire.execute(arguments: [newest - options.historyMaxAge, options.historyAgePruneChunk])
    }

    /// The columns of a history line an insert writes.
    static let historyInsertColumns = 9

    /// How many lines the next insert takes: the largest power of two up to 64 that is not more than `remaining`,
    /// so that seven statements, each prepared once, insert any number of lines.
    static func historyInsertRows(forRemaining remaining: Int) -> Int {
        precondition(remaining > 0, "no history line left to insert")
        var rows = 64
        while rows > remaining { rows /= 2 }
        return rows
    }

    /// Inserts of 1, 2, 4 … 64 history lines (at index log2 of the count), each in the order given, dropping the
    /// lines of a widget the store does not hold (removed since). The rows of a `VALUES` list come in the order
    /// listed and nothing here reorders them, so the ids, which order a widget's lines, follow the batch
    /// (`StateHistoryTests` pins it).
    static let historyInsertSQL: [String] = (0...6).map { power in
        let row = "(" + Array(repeating: "?", count: historyInsertColumns).joined(separator: ", ") + ")"
        return """
            INSERT INTO history (widgetID, at, monotonic, event, reason, outcome, because, detail, runs)
            SELECT column1, column2, column3, column4, column5, column6, column7, column8, column9
            FROM (VALUES \(Array(repeating: row, count: 1 << power).joined(separator: ", ")))
            WHERE EXISTS (SELECT 1 FROM widget WHERE id = column1)
            """
    }

    private func writeGroupData(_ changes: [StateBatch.GroupDataKey: GroupDataRecord?], _ db: Database) throws {
        guard !changes.isEmpty else { return }
        let upsert = try db.cachedStatement(
            sql: """
                INSERT INTO group_data ("group", key, value, updatedAt) VALUES (?, ?, ?, ?)
                ON CONFLICT ("group", key) DO UPDATE SET value = excluded.value, updatedAt = excluded.updatedAt
                """)
        let delete = try db.cachedStatement(sql: "DELETE FROM group_data WHERE \"group\" = ? AND key = ?")
        for (identity, record) in changes {
            if let record {
                try upsert.execute(arguments: [
                    record.group, record.key, record.value, record.updatedAt.timeIntervalSinceReferenceDate,
                ])
            } else {
                try delete.execute(arguments: [identity.group, identity.key])
            }
        }
    }

    private func writeMeta(_ meta: [String: String?], _ db: Database) throws {
        guard !meta.isEmpty else { return }
        let upsert = try db.cachedStatement(
            sql: "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
        let delete = try db.cachedStatement(sql: "DELETE FROM meta WHERE key = ?")
        for (key, value) in meta {
            if let value {
                try upsert.execute(arguments: [key, value])
            } else {
                try delete.execute(arguments: [key])
            }
        }
    }
}
