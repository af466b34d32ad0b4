import Foundation
import Testing
import WidgetSchedulerCore

/// Restarts: nothing is refunded, the floor holds across them, and missed reloads catch up through the rules.
struct RestoreTests {
    static let savedWall = Date(timeIntervalSince1970: 1_767_600_000)

    static func saved() -> WidgetSchedule {
        var schedule = WidgetSchedule(id: "w", kind: "k", budget: RefreshBudget(tokens: 0.5, stamp: 1_000))
        schedule.lastRunStart = 900
        schedule.inFlight = WidgetSchedule.RunInFlight(reason: .explicit, startedAt: 990)
        return schedule
    }

    @Test func withinOneBootNothingMovesAndTheInterruptedRunIsPendingAgain() {
        let savedAt = Instant(monotonic: 1_000, wall: Self.savedWall)
        let now = savedAt.advanced(by: 10)
        let restored = Self.saved().restored(savedAt: savedAt, now: now, sameBoot: true)
        #expect(restored.budget == RefreshBudget(tokens: 0.5, stamp: 1_000))
        #expect(restored.lastRunStart == 990)
        #expect(restored.inFlight == nil)
        #expect(restored.pending == PendingRun(reason: .explicit, due: .monotonic(990)))
    }

    @Test func afterARebootWallTimeThatPassedCountsAndTheFloorStillHolds() throws {
        let savedAt = Instant(monotonic: 1_000, wall: Self.savedWall)
        let now = Instant(monotonic: 5, wall: Self.savedWall.addingTimeInterval(60))
        let restored = Self.saved().restored(savedAt: savedAt, now: now, sameBoot: false)
        let settings = SchedulerSettings()
        #expect(abs(restored.budget.available(at: 5, settings: settings) - (0.5 + 60.0 / 1_200)) < 1e-9)
        // The interrupted run started 70 s before now by the wall clock: the floor lifts 230 s from now; the
        // 0.45 token still missing takes 540 s.
        #expect(abs((restored.lastRunStart ?? 0) - (5 - 70)) < 1e-6)
        let plan = PlannedRun.plan(try #require(restored.pending), for: restored, at: now, settings: settings)
        #expect(plan == PlannedRun(reason: .explicit, at: 545, because: .budget))
    }

    @Test func aWallClockThatWentBackwardsAcrossARebootRefundsNothing() {
        let savedAt = Instant(monotonic: 1_000, wall: Self.savedWall)
        let now = Instant(monotonic: 5, wall: Self.savedWall.addingTimeInterval(-3_600))
        let restored = Self.saved().restored(savedAt: savedAt, now: now, sameBoot: false)
        #expect(restored.budget.available(at: 5, settings: SchedulerSettings()) == 0.5)
    }

    @Test func aRestoredWidgetCatchesUpAMissedReloadOnTheFirstTick() {
        var scheduler = Scheduler(settings: SchedulerSettings(maxConcurrentRuns: 4))
        var schedule = WidgetSchedule(id: "w", kind: "k", budget: RefreshBudget(tokens: 3, stamp: 0))
        schedule.lastRunStart = 0
        schedule.pending = PendingRun(reason: .policy, due: .wall(Self.savedWall.addingTimeInterval(600)))
        let now = Instant(monotonic: 7_200, wall: Self.savedWall.addingTimeInterval(7_200))
        scheduler.restore(schedule, at: now)
        #expect(scheduler.nextWakeup() == 7_200)
        let actions = scheduler.handle(.tick, at: now)
        #expect(actions.contains(.startRun(widget: "w", reason: .policy)))
    }
}
