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
        for suffix in ["", "-wal", "-shm", StateStore.runStartJournalSuffix] {
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

    private static func schedule(_ id: String, _ text: String) -> WidgetScheduleRecord {
        WidgetScheduleRecord(widgetID: id, state: Data(text.utf8), nextDue: StateTestFixtures.epoch, quarantined: true)
    }

    /// A store in a fresh directory holding `ids`, each with the schedule "before".
    private static func store(holding ids: [String]) throws -> (directory: URL, store: StateStore) {
        let directory = try StateTestFixtures.makeDirectory()
        let store = try StateStore(directory: directory)
        var batch = StateBatch()
        for id in ids {
            batch.upsertWidget(StateTestFixtures.widget(id))
            batch.upsertSchedule(schedule(id, "before"))
        }
        try store.apply(batch)
        return (directory, store)
    }

    private static func journalPath(_ directory: URL) -> String {
        directory.appendingPathComponent(StateStore.fileName + StateStore.runStartJournalSuffix).path
    }

    @Test func aRecordedRunStartSurvivesAKillBeforeItsCommit() throws {
        let (directory, store) = try Self.store(holding: ["w1"])
        try store.recordRunStarts([Self.schedule("w1", "spent"), Self.schedule("gone", "never stored")])

        let restarted = try StateStore(directory: try Self.snapshotAsIfKilled(directory))
        let state = try restarted.loadAll()
        #expect(state.widgets.map(\.widget.id) == ["w1"])
        #expect(state.widgets.first?.schedule == Self.schedule("w1", "spent"))
        #expect(state.meta[RunStartJournal.appliedKey] == "2")
        let report = try #require(restarted.runStartRecovery)
        #expect(report.contains(StateStore.fileName + StateStore.runStartJournalSuffix), "\(report)")
        #expect(report.contains("2 run starts of 1 widget"), "\(report)")
        // Recovery folded the records into the database: a second kill and restart sees the same.
        let again = try StateStore(directory: try Self.snapshotAsIfKilled(restarted.path.deletingLastComponent))
        #expect(try again.loadAll().widgets.first?.schedule == Self.schedule("w1", "spent"))
        #expect(again.runStartRecovery == nil)
        withExtendedLifetime(store) {}
    }

    @Test func aCommitCoversTheRecordsBeforeItSoARestartKeepsTheNewerState() throws {
        let (directory, store) = try Self.store(holding: ["w1"])
        try store.recordRunStarts([Self.schedule("w1", "spent")])
        var after = StateBatch()
        after.upsertSchedule(Self.schedule("w1", "answered"))
        try store.apply(after)

        let restarted = try StateStore(directory: try Self.snapshotAsIfKilled(directory))
        #expect(try restarted.loadAll().widgets.first?.schedule == Self.schedule("w1", "answered"))
        #expect(restarted.runStartRecovery == nil)
        // The next record continues the sequence, so it is newer than the covered ones.
        try store.recordRunStarts([Self.schedule("w1", "spent again")])
        let later = try StateStore(directory: try Self.snapshotAsIfKilled(directory))
        #expect(try later.loadAll().widgets.first?.schedule == Self.schedule("w1", "spent again"))
        withExtendedLifetime(store) {}
    }

    @Test func aDamagedJournalTailIsDroppedAndTheRecordsBeforeItKept() throws {
        let (directory, store) = try Self.store(holding: ["w1", "w2"])
        try store.recordRunStarts([Self.schedule("w1", "spent")])
        try store.recordRunStarts([Self.schedule("w2", "spent")])
        let copy = try Self.snapshotAsIfKilled(directory)
        let path = Self.journalPath(copy)
        var bytes = try #require(FileManager.default.contents(atPath: path))
        let whole = bytes.count
        bytes[bytes.count - 3] ^= 0xff
        bytes.append(contentsOf: [7, 0, 0])
        try bytes.write(to: URL(fileURLWithPath: path))

        let restarted = try StateStore(directory: copy)
        let schedules = try restarted.loadAll().widgets.map(\.schedule)
        #expect(schedules == [Self.schedule("w1", "spent"), Self.schedule("w2", "before")])
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(size < whole)
        let report = try #require(restarted.runStartRecovery)
        #expect(report.contains(path) && report.contains("were dropped"), "\(report)")
        #expect(report.contains("1 run start of 1 widget"), "\(report)")
        withExtendedLifetime(store) {}
    }

    @Test func theJournalIsEmptiedOnceACommitCoversALargeOne() throws {
        let (directory, store) = try Self.store(holding: ["w1"])
        let big = String(repeating: "x", count: 1000)
        func journalSize() throws -> Int {
            try #require(try FileManager.default.attributesOfItem(atPath: Self.journalPath(directory))[.size] as? Int)
        }
        var largest = 0
        var emptied = 0
        for turn in 1...200 {
            try store.recordRunStarts([Self.schedule("w1", "\(turn) \(big)")])
            largest = max(largest, try journalSize())
            var covering = StateBatch()
            covering.upsertSchedule(Self.schedule("w1", "\(turn) \(big)"))
            try store.apply(covering)
            if try journalSize() == 0 { emptied += 1 }
        }
        #expect(largest >= RunStartJournal.truncateAtBytes)
        #expect(largest < RunStartJournal.truncateAtBytes + 2000)
        #expect(emptied == 3)
        let restarted = try StateStore(directory: try Self.snapshotAsIfKilled(directory))
        #expect(try restarted.loadAll().widgets.first?.schedule == Self.schedule("w1", "200 \(big)"))
    }

    @Test func journalRecordsRoundTripAndAFlippedByteEndsTheReading() {
        var bytes: [UInt8] = []
        let records = (1...5).map { (index: Int) -> RunStartJournal.Record in
            let state = Data((0..<index * 7).map { (byte: Int) -> UInt8 in UInt8(byte & 0xff) })
            let nextDue: Date? = index.isMultiple(of: 2) ? nil : StateTestFixtures.epoch
            let schedule = WidgetScheduleRecord(widgetID: "w\(index)", state: state, nextDue: nextDue,
                                                quarantined: index == 3)
            return RunStartJournal.Record(sequence: UInt64(index), schedule: schedule)
        }
        var ends: [Int] = []
        for record in records {
            RunStartJournal.encode(record, into: &bytes)
            ends.append(bytes.count)
        }
        #expect(RunStartJournal.decode(bytes).records == records)
        #expect(RunStartJournal.decode(bytes).goodLength == bytes.count)
        for cut in [1, 11, ends[2] - 1] {
            let decoded = RunStartJournal.decode(Array(bytes.prefix(cut)))
            #expect(decoded.goodLength == (ends.last { $0 <= cut } ?? 0))
        }
        var flipped = bytes
        flipped[ends[1] + 20] ^= 0x01
        #expect(RunStartJournal.decode(flipped).records == Array(records.prefix(2)))
    }
}

private extension String {
    var deletingLastComponent: URL { URL(fileURLWithPath: self).deletingLastPathComponent() }
}
