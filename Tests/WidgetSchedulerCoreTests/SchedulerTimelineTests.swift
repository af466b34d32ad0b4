import Foundation
import Testing
import WidgetSchedulerCore

/// Policies, the current entry, wake-ups and wall-clock jumps.
struct SchedulerTimelineTests {
    @Test func atEndReloadsAtTheLastEntryDate() {
        var harness = SchedulerHarness()
        harness.at(0, .widgetAdded(id: "w", kind: "k"))
        harness.succeed("w", at: 1, entries: [0, 600, 1_200], policy: .atEnd)
        #expect(harness.scheduler.plannedRun(for: "w", at: harness.now) ==
                PlannedRun(reason: .policy, at: 1_201, because: nil))
        #expect(SchedulerHarness.starts(harness.tick(1_200)).isEmpty)
        #expect(SchedulerHarness.starts(harness.tick(1_201)) == ["w": .policy])
    }

    @Test func afterADateInsideTheFloorWaitsForTheFloor() {
        var harness = SchedulerHarness()
        harness.at(0, .widgetAdded(id: "w", kind: "k"))
        harness.succeed("w", at: 1, entries: [0], policy: .after(harness.wall(60)))
        #expect(harness.scheduler.plannedRun(for: "w", at: harness.now) ==
                PlannedRun(reason: .policy, at: 300, because: .floor))
    }

    @Test func neverPlansNoReload() {
        var harness = SchedulerHarness()
        harness.at(0, .widgetAdded(id: "w", kind: "k"))
        harness.succeed("w", at: 1, entries: [0], policy: .never)
        #expect(harness.scheduler.plannedRun(for: "w", at: harness.now) == nil)
        #expect(harness.scheduler.nextWakeup() == nil)
    }

    @Test func theCurrentEntryChangesExactlyAtEachEntryDate() {
        var harness = SchedulerHarness()
        harness.at(0, .widgetAdded(id: "w", kind: "k"))
        let first = harness.succeed("w", at: 1, entries: [-1, 59, 119], policy: .never)
        #expect(SchedulerHarness.entries(first) == ["w": harness.wall(0)])
        #expect(harness.scheduler.nextWakeup() == 60)
        #expect(SchedulerHarness.entries(harness.tick(59.9)).isEmpty)
        #expect(SchedulerHarness.entries(harness.tick(60)) == ["w": harness.wall(60)])
        #expect(harness.scheduler.nextWakeup() == 120)
        #expect(SchedulerHarness.entries(harness.tick(120)) == ["w": harness.wall(120)])
        #expect(harness.scheduler.nextWakeup() == nil)
    }

    @Test func aNewTimelineWhoseFirstEntryIsInTheFutureKeepsThePreviousEntry() {
        var harness = SchedulerHarness()
        harness.at(0, .widgetAdded(id: "w", kind: "k"))
        harness.succeed("w", at: 1, entries: [-1], policy: .never)
        let before = harness.scheduler.widgets["w"]?.currentEntry
        _ = harness.reload(400, .all)
        let actions = harness.succeed("w", at: 401, entries: [100], policy: .never)
        #expect(SchedulerHarness.entries(actions).isEmpty)
        #expect(harness.scheduler.widgets["w"]?.currentEntry == before)
        #expect(SchedulerHarness.entries(harness.tick(501)) == ["w": harness.wall(501)])
    }

    @Test func aNewTimelineWithAnEntryCurrentNowIsAnnouncedEvenWithTheSameDate() {
        // The scheduler keeps no contents: a new timeline's current entry carries new content even when its date
        // equals the entry shown, so hosts must hear of it.
        var harness = SchedulerHarness()
        harness.at(0, .widgetAdded(id: "w", kind: "k"))
        harness.succeed("w", at: 1, entries: [-1], policy: .never)
        let shown = harness.wall(0)
        _ = harness.reload(400, .all)
        let actions = harness.succeed("w", at: 401, entries: [shown.timeIntervalSince(harness.wall(401))],
                                      policy: .never)
        #expect(SchedulerHarness.entries(actions) == ["w": shown])
    }

    @Test func theNextWakeupIsTheEarliestOfEntryChangesAndRuns() {
        var harness = SchedulerHarness()
        harness.at(0, .widgetAdded(id: "a", kind: "k"))
        harness.at(0, .widgetAdded(id: "b", kind: "k"))
        harness.succeed("a", at: 1, entries: [0, 1_000], policy: .never)
        harness.succeed("b", at: 1, entries: [0], policy: .after(harness.wall(700)))
        #expect(harness.scheduler.nextWakeup() == 700)
    }

    @Test func aForwardWallClockJumpBringsPolicyDatesForwardButMintsNoToken() {
        var harness = SchedulerHarness(SchedulerSettings(burstBudget: 1, maxConcurrentRuns: 4))
        harness.at(0, .widgetAdded(id: "w", kind: "k"))
        harness.succeed("w", at: 1, entries: [0], policy: .after(harness.wall(3_600)))
        _ = harness.reload(300, .all)
        harness.succeed("w", at: 301, entries: [0], policy: .after(harness.wall(7_200)))
        let tokens = harness.scheduler.tokens(of: "w", at: harness.now.advanced(by: 1))
        harness.clock.jumpWall(by: 86_400)
        let actions = harness.tick(302)
        #expect(actions.contains(.wallClockJumped(delta: 86_400)))
        #expect(harness.scheduler.tokens(of: "w", at: harness.now) == tokens)
        // Due at once by the wall clock, yet held by the floor and then by the token it lacks.
        #expect(harness.scheduler.plannedRun(for: "w", at: harness.now) ==
                PlannedRun(reason: .policy, at: 1_500, because: .budget))
    }

    @Test func aBackwardWallClockJumpMovesPolicyDatesLaterAndKeepsTheCurrentEntry() {
        var harness = SchedulerHarness()
        harness.at(0, .widgetAdded(id: "w", kind: "k"))
        harness.succeed("w", at: 1, entries: [-1], policy: .after(harness.wall(3_600)))
        let entry = harness.scheduler.widgets["w"]?.currentEntry
        harness.clock.jumpWall(by: -86_400)
        let actions = harness.tick(2)
        #expect(actions.contains(.wallClockJumped(delta: -86_400)))
        let planned = harness.scheduler.plannedRun(for: "w", at: harness.now)?.at ?? 0
        #expect(abs(planned - (3_600 + 86_400)) < 1e-6)
        #expect(harness.scheduler.widgets["w"]?.currentEntry == entry)
    }
}
