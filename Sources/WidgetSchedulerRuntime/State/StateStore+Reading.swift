import Foundation
import GRDB

extension StateStore {
    /// Loads every widget with its schedule and timeline, and every meta value, in one read transaction.
    ///
    /// Rows are decoded straight from a cursor, without Codable, so 100 000 widgets load in a fraction of a second.
    /// The timelines' text dominates memory (about 1.4 KiB per 10-entry timeline); with `includingTimelines` false
    /// every `StoredWidget.timeline` is nil, and `timelines(widgetIDs:)` reads them when needed. To turn rows into
    /// the daemon's own state without holding them all at once, use `forEachStoredWidget(timelines:_:)`.
    public func loadAll(includingTimelines: Bool = true) throws -> StoredState {
        try databaseQueue.read { db in
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM widget") ?? 0
            var widgets: [StoredWidget] = []
            widgets.reserveCapacity(count)
            try Self.forEachStoredWidget(db, timelines: includingTimelines ? .full : .none) { widgets.append($0) }
            return StoredState(widgets: widgets, meta: try Self.meta(db))
        }
    }

    /// Calls `body` with every widget, in the order they were first added, from one read transaction; only one
    /// row is decoded at a time, so peak memory stays that of what `body` keeps.
    public func forEachStoredWidget(timelines: TimelineLoading = .full, _ body: (StoredWidget) throws -> Void) throws {
        try databaseQueue.read { db in
            try Self.forEachStoredWidget(db, timelines: timelines, body)
        }
    }

    /// How many widgets the store holds.
    public func widgetCount() throws -> Int {
        try databaseQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM widget") ?? 0 }
    }

    /// Every meta value by key.
    public func allMeta() throws -> [String: String] {
        try databaseQueue.read { db in try Self.meta(db) }
    }

    private static func forEachStoredWidget(
        _ db: Database, timelines: TimelineLoading, _ body: (StoredWidget) throws -> Void
    ) throws {
        let timelineColumns: String
        switch timelines {
        case .none: timelineColumns = "NULL, NULL, NULL, NULL"
        case .outlines:
            timelineColumns =
                "CASE WHEN t.outline IS NULL THEN t.timeline END, t.receivedAt, t.currentEntryIndex, t.outline"
        case .full: timelineColumns = "t.timeline, t.receivedAt, t.currentEntryIndex, t.outline"
        }
        let timelineJoin = timelines == .none ? "" : "LEFT JOIN timeline t ON t.widgetID = w.id"
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT w.id, w.kind, w.family, w.configuration, w.addedAt,
                    s.state, s.nextDue, s.quarantined,
                    \(timelineColumns)
                FROM widget w
                LEFT JOIN widget_schedule s ON s.widgetID = w.id
                \(timelineJoin)
                ORDER BY w.rowid
                """)
        while let row = try rows.next() {
            try body(try storedWidget(row))
        }
    }

    /// One widget with its schedule and timeline, or nil if the store has no widget with that id.
    public func storedWidget(id: String) throws -> StoredWidget? {
        try databaseQueue.read { db in
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT w.id, w.kind, w.family, w.configuration, w.addedAt,
                        s.state, s.nextDue, s.quarantined,
                        t.timeline, t.receivedAt, t.currentEntryIndex, t.outline
                    FROM widget w
                    LEFT JOIN widget_schedule s ON s.widgetID = w.id
                    LEFT JOIN timeline t ON t.widgetID = w.id
                    WHERE w.id = ?
                    """,
                arguments: [id])
            return try row.map(Self.storedWidget)
        }
    }

    /// The last good timelines of the widgets named, by widget id, in one read: a burst of entry changes at one
    /// instant needs one per changing widget. A widget without one (or no such widget) is left out.
    public func timelines(widgetIDs: [String]) throws -> [String: TimelineRecord] {
        try databaseQueue.read { db in
            // Cached for the loop below: each `read` sets and clears `PRAGMA query_only`, which expires every
            // prepared statement, so one read a widget compiled the query a widget, a third of a burst's time.
            let statement = try db.cachedStatement(
                sql: "SELECT timeline, receivedAt, currentEntryIndex, outline FROM timeline WHERE widgetID = ?")
            var records: [String: TimelineRecord] = [:]
            records.reserveCapacity(widgetIDs.count)
            for id in widgetIDs {
                guard let row = try Row.fetchOne(statement, arguments: [id]) else { continue }
                records[id] = TimelineRecord(
                    widgetID: id, timeline: try row.decode(atIndex: 0),
                    receivedAt: Date(timeIntervalSinceReferenceDate: try row.decode(atIndex: 1)),
                    currentEntryIndex: try row.decode(atIndex: 2), outline: try row.decode(atIndex: 3))
            }
            return records
        }
    }

    /// The widget's history lines at or after `since`, oldest first.
    public func history(widgetID: String, since: Date = .distantPast) throws -> [HistoryRecord] {
        try databaseQueue.read { db in
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT id, widgetID, at, monotonic, event, reason, outcome, because, detail, runs
                    FROM history WHERE widgetID = ? AND at >= ? ORDER BY id
                    """,
                arguments: [widgetID, since.timeIntervalSinceReferenceDate])
            var records: [HistoryRecord] = []
            while let row = try rows.next() {
                let key: Int64 = try row.decode(atIndex: 0)
                let eventText: String = try row.decode(atIndex: 4)
                guard let event = HistoryRecord.Event(rawValue: eventText) else {
                    throw StateStoreError.corruptRow(
                        table: "history", key: "\(key)", reason: "unknown event \"\(eventText)\"")
                }
                // Read as a value first: a column's CHECK lets text through (SQLite orders text after numbers), and
                // converting it straight to Int would stop the process rather than name the row.
                let runsValue: DatabaseValue = row[9]
                guard let runs = Int.fromDatabaseValue(runsValue), runs >= 1 else {
                    throw StateStoreError.corruptRow(table: "history", key: "\(key)",
                                                     reason: "runs is \(runsValue), not a count of 1 or more")
                }
                let at: Date
                let monotonic: Double
                do {
                    at = try StoredValueError.date(Date(timeIntervalSinceReferenceDate: try row.decode(atIndex: 2)),
                                                   "at")
                    monotonic = try StoredValueError.monotonic(try row.decode(atIndex: 3), "monotonic")
                } catch let error as StoredValueError {
                    throw StateStoreError.corruptRow(table: "history", key: "\(key)", reason: error.description)
                }
                records.append(
                    HistoryRecord(
                        id: key, widgetID: try row.decode(atIndex: 1), at: at, monotonic: monotonic, event: event,
                        reason: try row.decode(atIndex: 5), outcome: try row.decode(atIndex: 6),
                        because: try row.decode(atIndex: 7), detail: try row.decode(atIndex: 8), runs: runs))
            }
            return records
        }
    }

    /// Every value of `group`, ordered by key.
    public func groupData(group: String) throws -> [GroupDataRecord] {
        try databaseQueue.read { db in
            try Row.fetchAll(
                db, sql: "SELECT \"group\", key, value, updatedAt FROM group_data WHERE \"group\" = ? ORDER BY key",
                arguments: [group]
            ).map { try Self.groupDataRecord($0) }
        }
    }

    /// One value of `group`, or nil if it was never written or was deleted.
    /// The hashes of the images each widget's stored entries refer to, by widget id.
    public func imageReferences() throws -> [String: Set<String>] {
        try databaseQueue.read { db in
            var references: [String: Set<String>] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT widgetID, sha256 FROM image_reference")
            while let row = try rows.next() {
                let widgetID: String = try row.decode(atIndex: 0)
                let hash: String = try row.decode(atIndex: 1)
                references[widgetID, default: []].insert(hash)
            }
            return references
        }
    }

    public func groupValue(group: String, key: String) throws -> GroupDataRecord? {
        try databaseQueue.read { db in
            try Row.fetchOne(
                db, sql: "SELECT \"group\", key, value, updatedAt FROM group_data WHERE \"group\" = ? AND key = ?",
                arguments: [group, key]
            ).map { try Self.groupDataRecord($0) }
        }
    }

    /// One meta value, or nil if it is not set.
    public func meta(_ key: String) throws -> String? {
        try databaseQueue.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key])
        }
    }

    private static func meta(_ db: Database) throws -> [String: String] {
        var meta: [String: String] = [:]
        let rows = try Row.fetchCursor(db, sql: "SELECT key, value FROM meta")
        while let row = try rows.next() {
            meta[try row.decode(atIndex: 0)] = try row.decode(String.self, atIndex: 1)
        }
        return meta
    }

    // Every column through `decode`, which throws for a value it cannot convert (a NULL a hand-edited table let
    // in), where the subscript would stop the process.
    private static func storedWidget(_ row: Row) throws -> StoredWidget {
        let id: String = try row.decode(atIndex: 0)
        let widget = WidgetRecord(
            id: id, kind: try row.decode(atIndex: 1), family: try row.decode(atIndex: 2),
            configuration: try row.decode(atIndex: 3),
            addedAt: Date(timeIntervalSinceReferenceDate: try row.decode(atIndex: 4)))
        var schedule: WidgetScheduleRecord?
        if let state: Data = try row.decode(atIndex: 5) {
            schedule = WidgetScheduleRecord(
                widgetID: id, state: state,
                nextDue: try row.decode(Double?.self, atIndex: 6).map(Date.init(timeIntervalSinceReferenceDate:)),
                quarantined: try row.decode(atIndex: 7))
        }
        let outline: Data? = try row.decode(atIndex: 11)
        var timeline: TimelineRecord?
        if let text: String = try row.decode(atIndex: 8) {
            timeline = TimelineRecord(
                widgetID: id, timeline: text,
                receivedAt: Date(timeIntervalSinceReferenceDate: try row.decode(atIndex: 9)),
                currentEntryIndex: try row.decode(atIndex: 10), outline: outline)
        }
        return StoredWidget(widget: widget, schedule: schedule, timeline: timeline, outline: outline)
    }

    private static func groupDataRecord(_ row: Row) throws -> GroupDataRecord {
        let group: String = try row.decode(atIndex: 0)
        let key: String = try row.decode(atIndex: 1)
        let updatedAt = Date(timeIntervalSinceReferenceDate: try row.decode(atIndex: 3))
        if let error = StoredValueError.problem(date: updatedAt, "updatedAt") {
            throw StateStoreError.corruptRow(table: "group_data", key: "\(group)/\(key)", reason: error.description)
        }
        return GroupDataRecord(group: group, key: key, value: try row.decode(atIndex: 2), updatedAt: updatedAt)
    }
}
