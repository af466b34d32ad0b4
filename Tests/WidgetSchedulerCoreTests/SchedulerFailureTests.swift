import Testing
import WidgetSchedulerCore

/// Failures: the last good timeline is kept, retries are budgeted and back off, quarantine at the threshold,
/// and a success resets it all.
struct SchedulerFailureTests {
    @Test func aFailureKeepsTheLastGoodTimelineAndSchedulesABudgetedRetry() {
        var harness = SchedulerHarness()
        harness.at(0, .widgetAdded(id: "w", kind: "k"))
        harness.succeed("w", at: 1, entries: [0, 600], policy: .never)
        let good = harness.scheduler.widgets["w"]?.timeline
        _ = harness.reload(400, .all)
        let actions = harness.fail("w", at: 401)
        #expect(actions.contains(.backedOff(widget: "w", failures: 1, until: 431)))
        #expect(harness.scheduler.widgets["w"]?.timeline == good)
        // The floor from the run at 400 outlasts the 30 s backoff.
        #expect(harness.scheduler.plannedRun(for: "w", at: harness.now) ==
                PlannedRun(reason: .retry, at: 700, because: .floor))
        #expect(SchedulerHarness.starts(harness.tick(700)) == ["w": .retry])
    }

    @Test func backoffHoldsARetryPastTheFloor() {
        var harness = SchedulerHarness(SchedulerSettings(minimumInterval: 10, maxConcurrentRuns: 4))
        harness.at(0, .widgetAdded(id: "w", kind: "k"))
        var t = 0.0
        for failures in 1...4 {
            let actions = harness.fail("w", at: t + 1)
            let delay = Backoff.delay(afterFailures: failures, settings: harness.scheduler.settings)
            #expect(actions.contains(.backedOff(widget: "w", failures: failures, until: t + 1 + delay)))
            #expect(SchedulerHarness.starts(harness.tick(t + delay)).isEmpty)
            t += 1 + delay
            #expect(SchedulerHarness.starts(harness.tick(t)) == ["w": .retry])
        }
    }

    @Test func tenConsecutiveFailuresQuarantineTheWidget() {
        var harness = SchedulerHarness(SchedulerSettings(minimumInterval: 0, backoffInitial: 1, backoffMaximum: 1,
                                                         maxConcurrentRuns: 4))
        harness.at(0, .widgetAdded(id: "w", kind: "k"))
        var t = 0.0
        var quarantined = false
        for failures in 1...10 {
            t += 1
            let actions = harness.fail("w", at: t)
            quarantined = actions.contains(.quarantined(widget: "w", failures: 10))
            #expect(quarantined == (failures == 10))
            t += 1
            _ = harness.tick(t)
        }
        #expect(quarantined)
        #expect(harness.scheduler.widgets["w"]?.quarantined == true)
        #expect(harness.scheduler.plannedRun(for: "w", at: harness.now) == nil)
        #expect(SchedulerHarness.starts(harness.tick(t + 100_000)).isEmpty)
        #expect(harness.scheduler.nextWakeup() == nil)
    }

    @Test("an explicit, foreground or configuration request lifts quarantine", arguments: [false, true])
    func requestsLiftQuarantine(foreground: Bool) {
        var harness = SchedulerHarness(SchedulerSettings(quarantineThreshold: 1, maxConcurrentRuns: 4))
        harness.at(0, .widgetAdded(id: "w", kind: "k"))
        harness.fail("w", at: 1)
        #expect(harness.scheduler.widgets["w"]?.quarantined == true)
        let decisions = harness.reload(400, .all, foreground: foreground)
        #expect(decisions == ["w": .ran(at: 400)])
        #expect(harness.scheduler.widgets["w"]?.quarantined == false)
    }

    @Test func aSuccessResetsFailuresBackoffAndQuarantine() {
        var harness = SchedulerHarness(SchedulerSettings(minimumInterval: 0, maxConcurrentRuns: 4))
        harness.at(0, .widgetAdded(id: "w", kind: "k"))
        harness.fail("w", at: 1)
        harness.tick(31)
        harness.fail("w", at: 32)
        #expect(harness.scheduler.widgets["w"]?.consecutiveFailures == 2)
        harness.tick(92)
        harness.succeed("w", at: 93)
        let widget = harness.scheduler.widgets["w"]
        #expect(widget?.consecutiveFailures == 0)
        #expect(widget?.backoffUntil == nil)
        #expect(widget?.quarantined == false)
    }
}
