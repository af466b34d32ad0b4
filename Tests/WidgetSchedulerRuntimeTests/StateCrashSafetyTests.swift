import Foundation
import GRDB
import Testing

@testable import WidgetSchedulerRuntime

/// A `kill -9` leaves the database files exactly as the process's last write(2) calls left them: the kernel keeps
/// every written byte. These tests copy the files of a store that is still open and never closed (so no checkpoint
/// or cleanup at close can help), which is the state a killed daemon leaves, then open the copy as the restarted
/// daemon would.
@Suite("State store: crash safety")
struct StateCrashSafetyTests {
    private static func snapshotAsIfKilled(_ directory: URL) throws -> URL {
        let copy = try StateTestFixtures.makeDirectory()
        for suffix in ["", "-wal", "-shm"] {
            let source = directory.appendingPathComponent(StateStore.fileName + suffix)
            if FileManager.default.fileExists(atPath: source.path) {
                try FileManager.default.copyItem(
                    at: source, to: copy.appendingPathComponent(StateStore.fileName + suffix))
            }
        }
        return copy
    }

    private static func tokens(_ turn: Int) -> Data { Data("tokens=\(turn)".utf8) }

    @Test func everyCommittedBatchSurvivesAKillAfterIt() throws {
        let directory = try StateTestFixtures.makeDirectory()
        let store = try StateStore(directory: directory)
        let widgetCount = 20
        var checkedSnapshots = 0
        for turn in 1...300 {
            let id = "w\(turn % widgetCount)"
            var batch = StateBatch()
            batch.upsertWidget(StateTestFixtures.widget(id))
            batch.upsertSchedule(
                WidgetScheduleRecord(widgetID: id, state: Self.tokens(turn), nextDue: nil, quarantined: false))
            batch.upsertTimeline(StateTestFixtures.timeline(id, currentEntryIndex: turn))
            batch.appendHistory(StateTestFixtures.history(id, at: Double(turn)))
            batch.setMeta("turn", "\(turn)")
            try store.apply(batch)

            guard turn % 23 == 0 || turn == 7 else { continue }
            let restarted = try StateStore(directory: try Self.snapshotAsIfKilled(directory))
            #expect(try restarted.integrityCheck() == "ok")
            let state = try restarted.loadAll()
            #expect(state.meta["turn"] == "\(turn)")
            #expect(state.widgets.count == min(turn, widgetCount))
            for stored in state.widgets {
                let index = try #require(Int(stored.widget.id.dropFirst()))
                let lastTurnOfWidget = turn - ((turn - index) % widgetCount + widgetCount) % widgetCount
                #expect(stored.schedule?.state == Self.tokens(lastTurnOfWidget), "\(stored.widget.id)")
                #expect(stored.timeline?.currentEntryIndex == lastTurnOfWidget)
            }
            #expect(try restarted.history(widgetID: id).count == (turn - 1) / widgetCount + 1)
            try restarted.close()
            checkedSnapshots += 1
        }
        #expect(checkedSnapshots == 14)
        withExtendedLifetime(store) {}
    }

    @Test func aTransactionCutOffByAKillLeavesNoTrace() throws {
        let directory = try StateTestFixtures.makeDirectory()
        let store = try StateStore(directory: directory)
        var committed = StateBatch()
        committed.upsertWidget(StateTestFixtures.widget("committed"))
        committed.upsertSchedule(StateTestFixtures.schedule("committed"))
        try store.apply(committed)

        let walPath = directory.appendingPathComponent(StateStore.fileName + "-wal").path
        let walSizeBefore = try Self.fileSize(walPath)
        var snapshot: URL?
        try store.databaseQueue.writeWithoutTransaction { db in
            // A tiny page cache makes SQLite spill the open transaction's pages into the WAL before any commit.
            try db.execute(sql: "PRAGMA cache_size = 8")
            try db.execute(sql: "BEGIN IMMEDIATE")
            let bulky = String(repeating: "x", count: 4000)
            for index in 0..<500 {
                try db.execute(
                    sql: "INSERT INTO widget (id, kind, family, configuration, addedAt) VALUES (?, 'k', 'f', ?, 0)",
                    arguments: ["uncommitted\(index)", bulky])
            }
            try db.execute(sql: "DELETE FROM widget_schedule")
            snapshot = try Self.snapshotAsIfKilled(directory)
            try db.execute(sql: "ROLLBACK")
        }
        #expect(try Self.fileSize(walPath) > walSizeBefore + 1_000_000)

        let restarted = try StateStore(directory: try #require(snapshot))
        #expect(try restarted.integrityCheck() == "ok")
        let state = try restarted.loadAll()
        #expect(state.widgets.map(\.widget.id) == ["committed"])
        #expect(state.widgets.first?.schedule == StateTestFixtures.schedule("committed"))
        withExtendedLifetime(store) {}
    }

    private static func fileSize(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }
}
