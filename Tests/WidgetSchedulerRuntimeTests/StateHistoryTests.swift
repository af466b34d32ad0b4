import Foundation
import GRDB
import Testing

@testable import WidgetSchedulerRuntime

@Suite("State history: bounded per widget and by age")
struct StateHistoryTests {
    private func makeStore(_ options: StateStoreOptions, widgets: [String] = ["a", "b"]) throws -> StateStore {
        let store = try StateStore(directory: try StateTestFixtures.makeDirectory(), options: options)
        var batch = StateBatch()
        for id in widgets {
            batch.upsertWidget(StateTestFixtures.widget(id))
        }
        try store.apply(batch)
        return store
    }

    @Test(arguments: [1, 5, 12])
    func eachWidgetKeepsAtMostTheLimitNewestLines(linesPerBatch: Int) throws {
        let store = try makeStore(StateStoreOptions(historyLimitPerWidget: 5))
        var appended = 0
        while appended < 12 {
            var batch = StateBatch()
            for _ in 0..<min(linesPerBatch, 12 - appended) {
                batch.appendHistory(StateTestFixtures.history("a", at: Double(appended), outcome: "run \(appended)"))
                appended += 1
            }
            try store.apply(batch)
        }
        var other = StateBatch()
        for index in 0..<3 {
            other.appendHistory(StateTestFixtures.history("b", at: Double(index)))
        }
        try store.apply(other)

        #expect(try store.history(widgetID: "a").map(\.outcome) == (7..<12).map { "run \($0)" })
        #expect(try store.history(widgetID: "b").count == 3)
    }

    @Test func linesOlderThanTheMaximumAgeArePrunedWhenNewerOnesArrive() throws {
        let store = try makeStore(StateStoreOptions(historyMaxAge: 100))
        var batch = StateBatch()
        batch.appendHistory(StateTestFixtures.history("a", at: 0, outcome: "old"))
        batch.appendHistory(StateTestFixtures.history("b", at: 50, outcome: "old"))
        batch.appendHistory(StateTestFixtures.history("b", at: 90, outcome: "recent"))
        try store.apply(batch)
        #expect(try store.history(widgetID: "a").map(\.outcome) == ["old"])

        var later = StateBatch()
        later.appendHistory(StateTestFixtures.history("a", at: 180, outcome: "new"))
        try store.apply(later)
        #expect(try store.history(widgetID: "a").map(\.outcome) == ["new"])
        #expect(try store.history(widgetID: "b").map(\.outcome) == ["recent"])
    }

    @Test func agePruningRemovesAtMostOneChunkPerBatch() throws {
        let store = try makeStore(StateStoreOptions(historyMaxAge: 100, historyAgePruneChunk: 2))
        var batch = StateBatch()
        for index in 0..<5 {
            batch.appendHistory(StateTestFixtures.history("a", at: Double(index)))
        }
        try store.apply(batch)

        var remaining: [Int] = []
        for turn in 0..<3 {
            var later = StateBatch()
            later.appendHistory(StateTestFixtures.history("b", at: 1000 + Double(turn)))
            try store.apply(later)
            remaining.append(try store.history(widgetID: "a").count)
        }
        #expect(remaining == [3, 1, 0])
    }

    @Test func historyForAnUnknownWidgetIsDroppedAndTheBatchStillCommits() throws {
        let store = try makeStore(StateStoreOptions())
        var batch = StateBatch()
        batch.appendHistory(StateTestFixtures.history("ghost"))
        batch.appendHistory(StateTestFixtures.history("a"))
        batch.setMeta("turn", "1")
        try store.apply(batch)

        #expect(try store.history(widgetID: "ghost").isEmpty)
        #expect(try store.history(widgetID: "a").count == 1)
        #expect(try store.meta("turn") == "1")
    }

    @Test func aBatchOfManyLinesIsWrittenInItsOrderWithAnUnknownWidgetsLinesDropped() throws {
        // 150 lines, more than one insert takes, interleaved over two widgets and one the store does not hold.
        let store = try makeStore(StateStoreOptions(historyLimitPerWidget: 1000))
        var batch = StateBatch()
        for index in 0..<150 {
            let widget = ["a", "ghost", "b"][index % 3]
            batch.appendHistory(StateTestFixtures.history(widget, at: Double(index), outcome: "line \(index)"))
        }
        try store.apply(batch)
        #expect(try store.history(widgetID: "a").map(\.outcome) == stride(from: 0, to: 150, by: 3).map { "line \($0)" })
        #expect(try store.history(widgetID: "b").map(\.outcome) == stride(from: 2, to: 150, by: 3).map { "line \($0)" })
        #expect(try store.history(widgetID: "ghost").isEmpty)
        // Across the widgets too, the ids follow the batch: ordered by id, the lines are in date order.
        let lines = try store.history(widgetID: "a") + store.history(widgetID: "b")
        #expect(lines.sorted { $0.id! < $1.id! }.map(\.at) == lines.map(\.at).sorted())
    }

    @Test func aLineKeepsTheNumberOfRunsItStandsForAndAtLeastOne() throws {
        let store = try makeStore(StateStoreOptions())
        var batch = StateBatch()
        batch.appendHistory(StateTestFixtures.history("a", at: 0))
        var folded = StateTestFixtures.history("a", at: 1)
        folded.runs = 37
        batch.appendHistory(folded)
        var outOfRange = StateTestFixtures.history("a", at: 2)
        outOfRange.runs = 0
        batch.appendHistory(outOfRange)
        try store.apply(batch)
        #expect(try store.history(widgetID: "a").map(\.runs) == [1, 37, 1])
    }

    @Test func aLineWhoseRunsAreNotACountIsAnErrorNamingTheRow() throws {
        let store = try makeStore(StateStoreOptions())
        try store.databaseQueue.write { db in
            try db.execute(sql: """
                INSERT INTO history (id, widgetID, at, monotonic, event, reason, outcome, runs)
                VALUES (41, 'a', 10, 1, 'run', 'policy', 'success', 'many')
                """)
        }
        #expect(throws: StateStoreError.corruptRow(table: "history", key: "41",
                                                    reason: "runs is \"many\", not a count of 1 or more")) {
            try store.history(widgetID: "a")
        }
        #expect(try store.history(widgetID: "b").isEmpty)
    }

    @Test func linesWrittenBeforeTheRunsColumnStandForOneRunEach() throws {
        let directory = try StateTestFixtures.makeDirectory()
        do {
            // A state file as the daemon left it before the migration that adds the column.
            let queue = try DatabaseQueue(path: directory.appendingPathComponent("state.sqlite").path)
            try StateSchema.migrator.migrate(queue, upTo: "v2-timeline-outline")
            try queue.write { db in
                try db.execute(sql: "INSERT INTO widget VALUES ('a', 'weather', 'systemSmall', '{}', 0)")
                try db.execute(sql: """
                    INSERT INTO history (widgetID, at, monotonic, event, reason, outcome)
                    VALUES ('a', 10, 1, 'run', 'policy', 'success'), ('a', 20, 2, 'decision', 'request', 'ran')
                    """)
            }
        }
        let store = try StateStore(directory: directory)
        #expect(try store.history(widgetID: "a").map(\.runs) == [1, 1])
        #expect(try store.history(widgetID: "a").map(\.outcome) == ["success", "ran"])
    }

    @Test(arguments: [(1, 1), (2, 2), (3, 2), (36, 32), (63, 32), (64, 64), (65, 64), (1000, 64)])
    func eachInsertTakesTheLargestPowerOfTwoUpToSixtyFourLines(remaining: Int, rows: Int) {
        #expect(StateStore.historyInsertRows(forRemaining: remaining) == rows)
    }

    @Test func theInsertsOfAnyNumberOfLinesAddUpToItWithSevenStatements() {
        for count in 1...300 {
            var remaining = count
            var sizes: Set<Int> = []
            while remaining > 0 {
                let rows = StateStore.historyInsertRows(forRemaining: remaining)
                sizes.insert(rows)
                remaining -= rows
            }
            #expect(remaining == 0)
            #expect(sizes.isSubset(of: [1, 2, 4, 8, 16, 32, 64]))
        }
        #expect(StateStore.historyInsertSQL.count == 7)
        #expect(StateStore.historyInsertSQL[6].components(separatedBy: "?").count - 1 == 64 * 9)
    }

    @Test func historyOfAWidgetAddedInTheSameBatchIsKept() throws {
        let store = try makeStore(StateStoreOptions(), widgets: [])
        var batch = StateBatch()
        batch.upsertWidget(StateTestFixtures.widget("new"))
        batch.appendHistory(StateTestFixtures.history("new"))
        try store.apply(batch)
        #expect(try store.history(widgetID: "new").count == 1)
    }

    @Test func theInsertLooksEachLinesWidgetUpByItsKey() throws {
        let store = try makeStore(StateStoreOptions())
        let plan = try store.databaseQueue.read { db in
            try Row.fetchAll(
                db, sql: "EXPLAIN QUERY PLAN " + StateStore.historyInsertSQL[2],
                arguments: StatementArguments(Array(repeating: "a", count: 4 * StateStore.historyInsertColumns))
            ).map { $0["detail"] as String }
        }
        // The VALUES list is scanned, as it must be; the widget table never is.
        #expect(plan.contains { $0.contains("widget USING") }, "\(plan)")
        #expect(!plan.contains { $0.hasPrefix("SCAN widget") }, "\(plan)")
    }

    @Test func pruningUsesTheWidgetAndAgeIndexesInsteadOfScanning() throws {
        let store = try makeStore(StateStoreOptions())
        let plans = try store.databaseQueue.read { db in
            [
                try Row.fetchAll(
                    db, sql: "EXPLAIN QUERY PLAN " + StateStore.historyTrimSQL, arguments: ["a", 200]
                ).map { $0["detail"] as String },
                try Row.fetchAll(
                    db, sql: "EXPLAIN QUERY PLAN " + StateStore.historyExpireSQL, arguments: [0, 500]
                ).map { $0["detail"] as String },
            ]
        }
        for plan in plans {
            #expect(!plan.isEmpty)
            #expect(plan.allSatisfy { !$0.hasPrefix("SCAN") }, "\(plan)")
        }
    }
}
