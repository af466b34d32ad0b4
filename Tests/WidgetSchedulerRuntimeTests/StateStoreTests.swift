import Foundation
import GRDB
import Testing

@testable import WidgetSchedulerRuntime

@Suite("State store: schema, round trips, reopening")
struct StateStoreTests {
    static let allMigrations = ["v1", "v2-timeline-outline", "v3-history-runs", "v4-image-references"]

    @Test func openingAnEmptyDirectoryCreatesTheDatabaseAndAppliesEveryMigration() throws {
        let directory = try StateTestFixtures.makeDirectory().appendingPathComponent("nested/state")
        let store = try StateStore(directory: directory)

        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("state.sqlite").path))
        #expect(try store.appliedMigrations() == StateSchema.migrator.migrations)
        #expect(try store.appliedMigrations() == Self.allMigrations)
        #expect(try store.integrityCheck() == "ok")
        let state = try store.loadAll()
        #expect(state.widgets.isEmpty)
        #expect(state.meta.isEmpty)
    }

    @Test func databaseRunsInWALModeWithForeignKeysAndABusyTimeout() throws {
        let store = try StateStore(directory: try StateTestFixtures.makeDirectory())
        let pragmas = try store.databaseQueue.read { db in
            (
                try String.fetchOne(db, sql: "PRAGMA journal_mode"),
                try Int.fetchOne(db, sql: "PRAGMA foreign_keys"),
                try Int.fetchOne(db, sql: "PRAGMA synchronous"),
                try Int.fetchOne(db, sql: "PRAGMA busy_timeout")
            )
        }
        #expect(pragmas.0 == "wal")
        #expect(pragmas.1 == 1)
        #expect(pragmas.2 == 1)  // NORMAL
        #expect(pragmas.3 == 5000)
    }

    @Test func powerLossDurabilityFsyncsEveryCommit() throws {
        let store = try StateStore(
            directory: try StateTestFixtures.makeDirectory(), options: StateStoreOptions(durability: .powerLoss))
        let synchronous = try store.databaseQueue.read { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
        #expect(synchronous == 2)  // FULL
    }

    @Test func backgroundCheckpointsMoveTheWALIntoTheDatabaseWhileWritesContinue() throws {
        let directory = try StateTestFixtures.makeDirectory()
        let store = try StateStore(
            directory: directory, options: StateStoreOptions(backgroundCheckpointEveryCommits: 10))
        let autoCheckpoint = try store.databaseQueue.read { db in
            try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint")
        }
        #expect(autoCheckpoint == 0)
        for index in 0..<200 {
            var batch = StateBatch()
            batch.upsertWidget(StateTestFixtures.widget("w\(index)"))
            batch.upsertTimeline(StateTestFixtures.timeline("w\(index)"))
            try store.apply(batch)
        }
        // Waits for the checkpoint thread (no timing is asserted: the deadline only bounds a hang).
        let deadline = Date().addingTimeInterval(30)
        while (store.backgroundCheckpointStatus?.completed ?? 0) == 0 && Date() < deadline {
            usleep(10_000)
        }
        let status = try #require(store.backgroundCheckpointStatus)
        #expect(status.completed >= 1)
        #expect(status.lastFailure == nil)
        let databaseSize = try FileManager.default.attributesOfItem(
            atPath: directory.appendingPathComponent(StateStore.fileName).path)[.size] as? Int
        #expect((databaseSize ?? 0) > 8192)  // pages reached the database file before any close
        try store.close()

        let reopened = try StateStore(directory: directory)
        #expect(try reopened.integrityCheck() == "ok")
        #expect(try reopened.loadAll().widgets.count == 200)
    }

    @Test func backToBackCommitsDoNotGrowTheWALWithoutEnd() throws {
        let directory = try StateTestFixtures.makeDirectory()
        let store = try StateStore(
            directory: directory,
            options: StateStoreOptions(backgroundCheckpointEveryCommits: 5, walRestartPages: 64))
        let wal = directory.appendingPathComponent(StateStore.fileName + "-wal").path
        var largest = 0
        for turn in 0..<1500 {
            var batch = StateBatch()
            let id = "w\(turn % 50)"
            batch.upsertWidget(StateTestFixtures.widget(id))
            batch.upsertSchedule(StateTestFixtures.schedule(id))
            batch.upsertTimeline(StateTestFixtures.timeline(id, currentEntryIndex: turn))
            batch.appendHistory(StateTestFixtures.history(id, at: Double(turn)))
            try store.apply(batch)
            usleep(300)  // the daemon's commits are a loop turn apart
            let size = (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0
            largest = max(largest, size)
        }
        // Without restarts the file reached 35-45 MB here; with them it stays near 64 pages' worth plus what commits
        // add while a checkpoint waits for its turn.
        #expect(largest < 12 << 20, "the WAL reached \(largest) bytes")
        #expect(store.backgroundCheckpointStatus?.lastFailure == nil)
        try store.close()
        #expect(try StateStore(directory: directory).integrityCheck() == "ok")
    }

    @Test func theCheckpointThreadIsNamedForTopAndPerf() throws {
        let store = try StateStore(
            directory: try StateTestFixtures.makeDirectory(),
            options: StateStoreOptions(backgroundCheckpointEveryCommits: 10))
        func threadNames() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").compactMap { task in
                try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)
            }
        }
        // The thread names itself as it starts; the deadline only bounds a hang.
        let deadline = Date().addingTimeInterval(30)
        var names = try threadNames()
        while !names.contains("wal-checkpoint\n") && Date() < deadline {
            usleep(10_000)
            names = try threadNames()
        }
        #expect(names.contains("wal-checkpoint\n"), "thread names: \(names)")
        try store.close()
    }

    @Test func withoutABackgroundCheckpointerThereIsNoStatus() throws {
        let store = try StateStore(directory: try StateTestFixtures.makeDirectory())
        #expect(store.backgroundCheckpointStatus == nil)
    }

    @Test func everyRecordRoundTrips() throws {
        let store = try StateStore(directory: try StateTestFixtures.makeDirectory())
        let widget = StateTestFixtures.widget("weather/w1")
        var bare = StateTestFixtures.widget("clock/c1", kind: "clock")
        bare.addedAt = widget.addedAt.addingTimeInterval(1)
        let schedule = WidgetScheduleRecord(
            widgetID: "weather/w1", state: Data([0, 1, 2, 255]), nextDue: Date(timeIntervalSinceReferenceDate: 0.1),
            quarantined: true)
        let timeline = StateTestFixtures.timeline("weather/w1", currentEntryIndex: 3)
        let runLine = HistoryRecord(
            widgetID: "weather/w1", at: StateTestFixtures.epoch, monotonic: 12.345_678_9, event: .run,
            reason: "request", outcome: "timeout", because: nil, detail: "killed after 30 s")
        let decisionLine = HistoryRecord(
            widgetID: "weather/w1", at: StateTestFixtures.epoch.addingTimeInterval(0.001), monotonic: 12.346,
            event: .decision, reason: "request", outcome: "deferred", because: "minimum interval", detail: nil)
        let value = GroupDataRecord(
            group: "weather", key: "unit", value: "celsius ✓", updatedAt: StateTestFixtures.epoch)

        var batch = StateBatch()
        batch.upsertWidget(widget)
        batch.upsertWidget(bare)
        batch.upsertSchedule(schedule)
        batch.upsertSchedule(StateTestFixtures.schedule("clock/c1", nextDue: nil))
        batch.upsertTimeline(timeline)
        batch.appendHistory(runLine)
        batch.appendHistory(decisionLine)
        batch.setGroupValue(value)
        batch.setMeta("bootID", "5f0c")
        try store.apply(batch)

        let state = try store.loadAll()
        #expect(state.widgets.map(\.widget) == [widget, bare])
        #expect(state.widgets[0].schedule == schedule)
        #expect(state.widgets[0].timeline == timeline)
        #expect(state.widgets[1].schedule == StateTestFixtures.schedule("clock/c1", nextDue: nil))
        #expect(state.widgets[1].timeline == nil)
        #expect(state.meta == ["bootID": "5f0c"])
        #expect(try store.storedWidget(id: "weather/w1") == state.widgets[0])
        #expect(try store.storedWidget(id: "missing") == nil)
        #expect(try store.timelines(widgetIDs: ["weather/w1", "clock/c1", "missing"]) == ["weather/w1": timeline])
        #expect(try store.timelines(widgetIDs: []).isEmpty)
        #expect(try store.meta("bootID") == "5f0c")

        let history = try store.history(widgetID: "weather/w1")
        #expect(history.map { $0.id == nil } == [false, false])
        let withoutIDs = history.map { record in
            var record = record
            record.id = nil
            return record
        }
        #expect(withoutIDs == [runLine, decisionLine])
        #expect(try store.history(widgetID: "weather/w1", since: decisionLine.at).map(\.outcome) == ["deferred"])
        #expect(try store.groupValue(group: "weather", key: "unit") == value)
        #expect(try store.groupData(group: "weather") == [value])
    }

    @Test func widgetWithoutScheduleOrTimelineLoadsWithNeither() throws {
        let store = try StateStore(directory: try StateTestFixtures.makeDirectory())
        var batch = StateBatch()
        batch.upsertWidget(StateTestFixtures.widget("w"))
        try store.apply(batch)

        let loaded = try store.loadAll().widgets
        #expect(loaded == [StoredWidget(widget: StateTestFixtures.widget("w"), schedule: nil, timeline: nil)])
    }

    @Test func reopeningAfterCloseKeepsEverything() throws {
        let directory = try StateTestFixtures.makeDirectory()
        let before: StoredState
        do {
            let store = try StateStore(directory: directory)
            var batch = StateBatch()
            for index in 0..<50 {
                let id = "weather/w\(index)"
                batch.upsertWidget(StateTestFixtures.widget(id))
                batch.upsertSchedule(StateTestFixtures.schedule(id))
                batch.upsertTimeline(StateTestFixtures.timeline(id))
                batch.appendHistory(StateTestFixtures.history(id))
            }
            batch.setGroupValue(GroupDataRecord(group: "g", key: "k", value: "v", updatedAt: StateTestFixtures.epoch))
            batch.setMeta("lastWall", "1795000000")
            try store.apply(batch)
            before = try store.loadAll()
            try store.close()
        }

        let reopened = try StateStore(directory: directory)
        let after = try reopened.loadAll()
        #expect(after.widgets == before.widgets)
        #expect(after.meta == before.meta)
        #expect(try reopened.history(widgetID: "weather/w7").count == 1)
        #expect(try reopened.groupValue(group: "g", key: "k")?.value == "v")
        #expect(try reopened.appliedMigrations() == Self.allMigrations)
    }

    @Test func groupDataIsSetListedReplacedAndDeleted() throws {
        let store = try StateStore(directory: try StateTestFixtures.makeDirectory())
        let first = GroupDataRecord(group: "g", key: "b", value: "1", updatedAt: StateTestFixtures.epoch)
        let second = GroupDataRecord(group: "g", key: "a", value: "2", updatedAt: StateTestFixtures.epoch)
        let other = GroupDataRecord(group: "h", key: "a", value: "3", updatedAt: StateTestFixtures.epoch)
        var batch = StateBatch()
        batch.setGroupValue(first)
        batch.setGroupValue(second)
        batch.setGroupValue(other)
        try store.apply(batch)
        #expect(try store.groupData(group: "g") == [second, first])

        let replaced = GroupDataRecord(
            group: "g", key: "b", value: "4", updatedAt: StateTestFixtures.epoch.addingTimeInterval(60))
        batch = StateBatch()
        batch.setGroupValue(replaced)
        batch.deleteGroupValue(group: "g", key: "a")
        batch.deleteGroupValue(group: "g", key: "never-written")
        try store.apply(batch)
        #expect(try store.groupData(group: "g") == [replaced])
        #expect(try store.groupValue(group: "g", key: "a") == nil)
        #expect(try store.groupData(group: "h") == [other])
    }

    @Test func metaValuesAreSetReplacedAndDeleted() throws {
        let store = try StateStore(directory: try StateTestFixtures.makeDirectory())
        var batch = StateBatch()
        batch.setMeta("a", "1")
        batch.setMeta("b", "2")
        try store.apply(batch)
        batch = StateBatch()
        batch.setMeta("a", "3")
        batch.deleteMeta("b")
        try store.apply(batch)
        #expect(try store.loadAll().meta == ["a": "3"])
    }

    @Test func aDatabaseFromANewerVersionIsRefusedByName() throws {
        let directory = try StateTestFixtures.makeDirectory()
        do {
            let store = try StateStore(directory: directory)
            try store.databaseQueue.write { db in
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99')")
            }
            try store.close()
        }
        let path = directory.appendingPathComponent("state.sqlite").path
        #expect(throws: StateStoreError.newerSchema(path: path, unknownMigrations: ["v99"])) {
            try StateStore(directory: directory)
        }
    }

    @Test func aStateDirectoryThatIsAFileIsAClearError() throws {
        let file = try StateTestFixtures.makeDirectory().appendingPathComponent("not-a-directory")
        try Data("x".utf8).write(to: file)
        let error = #expect(throws: StateStoreError.self) { try StateStore(directory: file) }
        #expect(error?.description.contains(file.path) == true)
    }

    @Test func aFileThatIsNotADatabaseIsAClearErrorNamingIt() throws {
        let directory = try StateTestFixtures.makeDirectory()
        let path = directory.appendingPathComponent("state.sqlite")
        try Data(repeating: 0x41, count: 8192).write(to: path)
        let error = #expect(throws: StateStoreError.self) { try StateStore(directory: directory) }
        #expect(error?.description.contains(path.path) == true)
    }
}
