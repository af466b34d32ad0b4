import Foundation
import GRDB
import Testing

@testable import WidgetSchedulerRuntime

@Suite("State batches: atomicity and coalescing")
struct StateBatchTests {
    @Test func aFailingStatementRollsBackTheWholeBatch() throws {
        let store = try StateStore(directory: try StateTestFixtures.makeDirectory())
        var first = StateBatch()
        first.upsertWidget(StateTestFixtures.widget("kept"))
        first.setMeta("turn", "1")
        try store.apply(first)

        var failing = StateBatch()
        failing.upsertWidget(StateTestFixtures.widget("new"))
        failing.deleteWidget(id: "kept")
        failing.setMeta("turn", "2")
        failing.setGroupValue(GroupDataRecord(group: "g", key: "k", value: "v", updatedAt: StateTestFixtures.epoch))
        // No widget "ghost" exists: the schedule violates the foreign key.
        failing.upsertSchedule(StateTestFixtures.schedule("ghost"))
        #expect(throws: DatabaseError.self) { try store.apply(failing) }

        let state = try store.loadAll()
        #expect(state.widgets.map(\.widget.id) == ["kept"])
        #expect(state.meta == ["turn": "1"])
        #expect(try store.groupData(group: "g").isEmpty)
        #expect(try store.integrityCheck() == "ok")

        var next = StateBatch()
        next.setMeta("turn", "3")
        try store.apply(next)
        #expect(try store.meta("turn") == "3")
    }

    @Test func theLastUpsertOfARowWins() throws {
        let store = try StateStore(directory: try StateTestFixtures.makeDirectory())
        var batch = StateBatch()
        var widget = StateTestFixtures.widget("w")
        batch.upsertWidget(widget)
        widget.configuration = #"{"city":"Lyon"}"#
        batch.upsertWidget(widget)
        batch.upsertSchedule(StateTestFixtures.schedule("w", nextDue: nil))
        let lastSchedule = StateTestFixtures.schedule("w")
        batch.upsertSchedule(lastSchedule)
        batch.setMeta("k", "old")
        batch.setMeta("k", "new")
        try store.apply(batch)

        let stored = try #require(try store.storedWidget(id: "w"))
        #expect(stored.widget.configuration == #"{"city":"Lyon"}"#)
        #expect(stored.schedule == lastSchedule)
        #expect(try store.meta("k") == "new")
    }

    @Test func upsertingAnExistingWidgetKeepsItsScheduleAndTimeline() throws {
        let store = try StateStore(directory: try StateTestFixtures.makeDirectory())
        var batch = StateBatch()
        batch.upsertWidget(StateTestFixtures.widget("w"))
        batch.upsertSchedule(StateTestFixtures.schedule("w"))
        batch.upsertTimeline(StateTestFixtures.timeline("w"))
        try store.apply(batch)

        var reconfigure = StateBatch()
        var widget = StateTestFixtures.widget("w")
        widget.configuration = #"{"city":"Oslo"}"#
        reconfigure.upsertWidget(widget)
        try store.apply(reconfigure)

        let stored = try #require(try store.storedWidget(id: "w"))
        #expect(stored.widget == widget)
        #expect(stored.schedule == StateTestFixtures.schedule("w"))
        #expect(stored.timeline == StateTestFixtures.timeline("w"))
    }

    @Test func deletingAWidgetCascadesToScheduleTimelineAndHistory() throws {
        let store = try StateStore(directory: try StateTestFixtures.makeDirectory())
        var batch = StateBatch()
        for id in ["a", "b"] {
            batch.upsertWidget(StateTestFixtures.widget(id))
            batch.upsertSchedule(StateTestFixtures.schedule(id))
            batch.upsertTimeline(StateTestFixtures.timeline(id))
            batch.appendHistory(StateTestFixtures.history(id))
        }
        try store.apply(batch)

        var delete = StateBatch()
        delete.deleteWidget(id: "a")
        try store.apply(delete)

        #expect(try store.loadAll().widgets.map(\.widget.id) == ["b"])
        #expect(try store.history(widgetID: "a").isEmpty)
        #expect(try store.history(widgetID: "b").count == 1)
        let orphans = try store.databaseQueue.read { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT (SELECT COUNT(*) FROM widget_schedule WHERE widgetID = 'a')
                        + (SELECT COUNT(*) FROM timeline WHERE widgetID = 'a')
                    """)
        }
        #expect(orphans == 0)
    }

    @Test func deletingAWidgetDropsItsEarlierChangesInTheSameBatch() throws {
        let store = try StateStore(directory: try StateTestFixtures.makeDirectory())
        var batch = StateBatch()
        batch.upsertWidget(StateTestFixtures.widget("w"))
        batch.upsertSchedule(StateTestFixtures.schedule("w"))
        batch.upsertTimeline(StateTestFixtures.timeline("w"))
        batch.appendHistory(StateTestFixtures.history("w"))
        batch.deleteWidget(id: "w")
        try store.apply(batch)

        #expect(try store.loadAll().widgets.isEmpty)
        #expect(try store.history(widgetID: "w").isEmpty)
    }

    @Test func aWidgetDeletedAndAddedAgainInOneBatchComesBackFresh() throws {
        let store = try StateStore(directory: try StateTestFixtures.makeDirectory())
        var batch = StateBatch()
        batch.upsertWidget(StateTestFixtures.widget("w"))
        batch.upsertSchedule(StateTestFixtures.schedule("w"))
        batch.upsertTimeline(StateTestFixtures.timeline("w"))
        batch.appendHistory(StateTestFixtures.history("w"))
        try store.apply(batch)

        var replace = StateBatch()
        replace.deleteWidget(id: "w")
        replace.upsertWidget(StateTestFixtures.widget("w", kind: "clock"))
        try store.apply(replace)

        let stored = try #require(try store.storedWidget(id: "w"))
        #expect(stored.widget.kind == "clock")
        #expect(stored.schedule == nil)
        #expect(stored.timeline == nil)
        #expect(try store.history(widgetID: "w").isEmpty)
    }

    @Test func settingTheCurrentEntryMovesOnlyTheIndex() throws {
        let store = try StateStore(directory: try StateTestFixtures.makeDirectory())
        var batch = StateBatch()
        batch.upsertWidget(StateTestFixtures.widget("w"))
        batch.upsertTimeline(StateTestFixtures.timeline("w", currentEntryIndex: nil))
        batch.setCurrentEntryIndex(1, widgetID: "w")
        try store.apply(batch)
        #expect(try store.storedWidget(id: "w")?.timeline?.currentEntryIndex == 1)

        var move = StateBatch()
        move.setCurrentEntryIndex(4, widgetID: "w")
        move.setCurrentEntryIndex(nil, widgetID: "no-timeline")
        try store.apply(move)
        #expect(try store.storedWidget(id: "w")?.timeline == StateTestFixtures.timeline("w", currentEntryIndex: 4))

        var newTimeline = StateBatch()
        newTimeline.setCurrentEntryIndex(7, widgetID: "w")
        newTimeline.upsertTimeline(StateTestFixtures.timeline("w", currentEntryIndex: 0))
        try store.apply(newTimeline)
        #expect(try store.storedWidget(id: "w")?.timeline?.currentEntryIndex == 0)
    }

    @Test func widgetsLoadInTheOrderTheyWereStoredAndByDateThenIdWithinABatch() throws {
        let store = try StateStore(directory: try StateTestFixtures.makeDirectory())
        var first = StateBatch()
        first.upsertWidget(StateTestFixtures.widget("z-first-batch"))
        try store.apply(first)

        var second = StateBatch()
        for id in ["c", "a", "b"] {
            second.upsertWidget(StateTestFixtures.widget(id))
        }
        var early = StateTestFixtures.widget("y-added-earlier")
        early.addedAt = early.addedAt.addingTimeInterval(-60)
        second.upsertWidget(early)
        try store.apply(second)

        #expect(
            try store.loadAll().widgets.map(\.widget.id) == ["z-first-batch", "y-added-earlier", "a", "b", "c"])
    }

    @Test func anEmptyBatchIsEmptyAndChangesNothing() throws {
        let store = try StateStore(directory: try StateTestFixtures.makeDirectory())
        let batch = StateBatch()
        #expect(batch.isEmpty)
        try store.apply(batch)
        var nonEmpty = StateBatch()
        nonEmpty.deleteMeta("x")
        #expect(!nonEmpty.isEmpty)
        #expect(try store.loadAll().meta.isEmpty)
    }

    @Test func anEmptiedBatchHoldsNothingAndKeepsOnlyAModestHistorysStorage() throws {
        var batch = StateBatch()
        batch.upsertWidget(StateTestFixtures.widget("w"))
        batch.upsertSchedule(StateTestFixtures.schedule("w"))
        batch.setMeta("turn", "1")
        for offset in 0..<100 { batch.appendHistory(StateTestFixtures.history("w", at: TimeInterval(offset))) }
        let historyCapacity = batch.history.capacity
        batch.removeAll()
        #expect(batch.isEmpty)
        #expect(batch.history.capacity == historyCapacity)

        for offset in 0...StateBatch.keptHistoryCapacity {
            batch.appendHistory(StateTestFixtures.history("w", at: TimeInterval(offset)))
        }
        batch.removeAll()
        #expect(batch.isEmpty)
        #expect(batch.history.capacity < StateBatch.keptHistoryCapacity)

        // What an emptied batch is given next is written as any batch's.
        let store = try StateStore(directory: try StateTestFixtures.makeDirectory())
        batch.upsertWidget(StateTestFixtures.widget("w"))
        batch.appendHistory(StateTestFixtures.history("w"))
        try store.apply(batch)
        #expect(try store.loadAll().widgets.map(\.widget.id) == ["w"])
        #expect(try store.history(widgetID: "w").count == 1)
    }
}
