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
        #expect(restored.pending == PendingRun(reason: .explicit, due: .monotonic(990), alreadyPaid: true))
    }

    @Test func afterARebootWallTimeThatPassedCountsAndTheFloorStillHolds() throws {
        let savedAt = Instant(monotonic: 1_000, wall: Self.savedWall)
        let now = Instant(monotonic: 5, wall: Self.savedWall.addingTimeInterval(60))
        let restored = Self.saved().restored(savedAt: savedAt, now: now, sameBoot: false)
        let settings = SchedulerSettings()
        #expect(abs(restored.budget.available(at: 5, settings: settings) - (0.5 + 60.0 / 1_200)) < 1e-9)
        // The interrupted run started 70 s before now by the wall clock: the floor lifts 230 s from now. Its token
        // was spent when it started, so the run in its place does not wait the 540 s the 0.45 token missing takes.
        #expect(abs((restored.lastRunStart ?? 0) - (5 - 70)) < 1e-6)
        let plan = PlannedRun.plan(try #require(restored.pending), for: restored, at: now, settings: settings)
        #expect(plan == PlannedRun(reason: .explicit, at: 235, because: .floor))
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

    /// A catch-up restored in the middle of a coalesce-window slot waits for the slot's end, and says so; a request
    /// that joins it before then is served at once, as a request that plans a run is.
    @Test(arguments: [
        (window: 1.0, restoredAt: 100.3, askedAt: nil as Double?, plannedAt: 101.0, startedAt: 101.0),
        (window: 1.0, restoredAt: 100.3, askedAt: 100.4, plannedAt: 101.0, startedAt: 100.4),
        (window: 0.0, restoredAt: 100.3, askedAt: nil, plannedAt: 100.3, startedAt: 100.3),
        (window: 30.0, restoredAt: 100.3, askedAt: 119.0, plannedAt: 120.0, startedAt: 119.0),
    ])
    func aRestoredDueRunStartsAtItsSlotEndUnlessSomeoneAsks(
        window: Double, restoredAt: Double, askedAt: Double?, plannedAt: Double, startedAt: Double
    ) {
        var harness = SchedulerHarness(SchedulerSettings(minimumInterval: 0, maxConcurrentRuns: 4,
                                                         coalesceWindow: window))
        var schedule = WidgetSchedule(id: "w", kind: "k", budget: RefreshBudget(tokens: 3, stamp: 0))
        schedule.pending = PendingRun(reason: .explicit, due: .monotonic(50))
        harness.clock.advance(to: restoredAt)
        harness.scheduler.restore(schedule, at: harness.now)
        #expect(harness.scheduler.plannedRun(for: "w", at: harness.now)?.at == plannedAt)
        #expect(harness.scheduler.nextWakeup() == plannedAt)
        var started: Double?
        if let askedAt {
            let decisions = harness.reload(askedAt, .widgets(["w"]))
            #expect(decisions == ["w": .ran(at: askedAt)], "the caller is served now, and told so")
            if decisions["w"] == .ran(at: askedAt) { started = askedAt }
        }
        for t in [restoredAt, max(restoredAt, plannedAt - 0.05), plannedAt] where started == nil {
            if SchedulerHarness.starts(harness.tick(t)) == ["w": .explicit] { started = t }
        }
        #expect(started.map { abs($0 - startedAt) < 1e-6 } == true, "started at \(String(describing: started))")
    }

    /// A widget whose run is in flight at every daemon death is the likely cause: the third in a row quarantines it.
    @Test(arguments: [
        (deathsBefore: 0, threshold: 3, deathsAfter: 1, quarantined: false),
        (deathsBefore: 1, threshold: 3, deathsAfter: 2, quarantined: false),
        (deathsBefore: 2, threshold: 3, deathsAfter: 3, quarantined: true),
        (deathsBefore: 0, threshold: 1, deathsAfter: 1, quarantined: true),
    ])
    func aRunInFlightAtADaemonDeathCountsTowardsQuarantine(
        deathsBefore: Int, threshold: Int, deathsAfter: Int, quarantined: Bool
    ) {
        var schedule = Self.saved()
        schedule.interruptedByDaemonDeaths = deathsBefore
        let after = schedule.afterDaemonDeath(threshold: threshold)
        #expect(after.interruptedByDaemonDeaths == deathsAfter)
        #expect(after.quarantined == quarantined)
        let savedAt = Instant(monotonic: 1_000, wall: Self.savedWall)
        let restored = after.restored(savedAt: savedAt, now: savedAt.advanced(by: 10), sameBoot: true)
        // Quarantined, its interrupted run is not run again at start; otherwise it is, as after a clean stop, paid
        // for by the token the interrupted run spent.
        #expect(restored.pending == (quarantined ? nil : PendingRun(reason: .explicit, due: .monotonic(990),
                                                                    alreadyPaid: true)))
        #expect(restored.budget == schedule.budget, "no token comes back either way")
    }

    @Test func aDeathWithNothingInFlightCountsForNobody() {
        var schedule = Self.saved()
        schedule.inFlight = nil
        schedule.interruptedByDaemonDeaths = 2
        #expect(schedule.afterDaemonDeath(threshold: 3) == schedule)
    }

    @Test func aRunThatFinishesClearsTheDeathsOfItsWidget() {
        for succeeds in [true, false] {
            var harness = SchedulerHarness(SchedulerSettings(minimumInterval: 0, maxConcurrentRuns: 4))
            var schedule = WidgetSchedule(id: "w", kind: "k", budget: RefreshBudget(tokens: 3, stamp: 0))
            schedule.interruptedByDaemonDeaths = 2
            schedule.pending = PendingRun(reason: .explicit, due: .monotonic(0))
            harness.scheduler.restore(schedule, at: harness.now)
            #expect(SchedulerHarness.starts(harness.tick(0)) == ["w": .explicit])
            _ = succeeds ? harness.succeed("w", at: 1) : harness.fail("w", at: 1)
            #expect(harness.scheduler.widgets["w"]?.interruptedByDaemonDeaths == 0, "succeeds: \(succeeds)")
        }
    }
}
