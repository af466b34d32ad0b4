import Foundation
import Testing
import WidgetProtocol
import WidgetSchedulerTestKit

/// The minimum interval and the daily budget, as `widgetctl reload --json`, `list --json` and `budget --json` show
/// them on the real daemon.
@Suite("Floor and budget through widgetctl")
struct FloorAndBudgetTests {
    @Test("a second reload inside the minimum interval is deferred because of the floor, and runs when it lifts")
    func secondReloadInsideTheFloorIsDeferred() throws {
        // 5 s: the second request and the two calls after it must come inside the floor the first run starts, on a
        // machine that may be busy compiling. The daemon runs under SCHED_FIFO: the deferred run's start is judged
        // against the floor's end.
        let floor = 5.0
        let world = try DaemonWorld(config: "minimum-interval = 5\n", realTime: true)
        try world.addScriptedKind("plain")
        try world.start()
        let id = try world.add("plain")
        let initial = try world.waitUntilIdle(id)
        #expect(initial.lastReason == "initial")
        #expect(initial.lastOutcome == "success")

        // The initial run started the floor too: wait for it to lift (on a loaded machine it may have already; the
        // core's tables pin that it starts the floor), then spend one explicit run.
        if let lifts = try world.ledger(id).floorLiftsAt { Thread.sleep(until: lifts.addingTimeInterval(0.01)) }
        let first = try world.widgetctlSucceeding("reload", id, "--json").decoded(ReloadMethod.Reply.self)
        let ran = try #require(first.decisions.first)
        #expect(first.decisions.count == 1)
        #expect(ran.decision == .ran)
        #expect(ran.because == nil)
        try world.waitUntilIdle(id)

        let second = try world.widgetctlSucceeding("reload", id, "--json").decoded(ReloadMethod.Reply.self)
        let deferred = try #require(second.decisions.first)
        #expect(deferred.widget == id)
        #expect(deferred.decision == .deferred)
        #expect(deferred.because == .floor)
        // A run held by the floor starts at the end of the coalesce-window slot the floor lifts in.
        let window = try world.widgetctlSucceeding("status", "--json").decoded(StatusMethod.Reply.self)
            .settings.coalesceWindow
        let held = deferred.at.timeIntervalSince(ran.at)
        #expect(held >= floor - 0.002 && held <= floor + window + 0.002,
                "deferred until the floor lifts, within one coalesce window (\(window) s): \(held) s")

        let pending = try world.summary(id)
        #expect(pending.state == "pending")
        #expect(pending.nextReason == "explicit")
        #expect(pending.nextReload.map { abs($0.timeIntervalSince(deferred.at)) < 0.002 } == true)
        #expect(pending.lastReason == "explicit")

        // A planned run is one a later request joins.
        let human = try world.widgetctlSucceeding("reload", id)
        #expect(human.standardOutput.hasPrefix("\(id): coalesced into the run at "), "\(human)")

        let later = try eventually("the deferred run", timeout: floor + 5) { () -> WidgetSummary? in
            let widget = try world.summary(id)
            return widget.lastReload.map { $0 > ran.at.addingTimeInterval(1) } == true
                && widget.lastOutcome == "success" && widget.state != "running" ? widget : nil
        }
        let start = try #require(later.lastReload)
        #expect(start >= deferred.at.addingTimeInterval(-0.005), "the run waited for the floor")
        let lateness = world.latenessBound(0.5, else: 2, in: "FloorAndBudgetTests")
        #expect(start < deferred.at.addingTimeInterval(lateness), "the run started when the floor lifted")
        #expect(later.nextReload == nil, "policy never: nothing more is planned")
    }

    @Test("with a burst of one token, the reload after an explicit run is deferred because of the budget")
    func exhaustedBudgetDefersTheReload() throws {
        let world = try DaemonWorld(config: """
            minimum-interval = 0
            burst-budget = 1
            daily-budget = 1
            """)
        try world.addScriptedKind("plain")
        try world.start()
        let id = try world.add("plain")
        let added = try world.waitUntilIdle(id)
        #expect(added.tokens == 1, "the initial run is exempt")

        let first = try world.widgetctlSucceeding("reload", id, "--json").decoded(ReloadMethod.Reply.self)
        #expect(first.decisions.map(\.decision) == [.ran])
        let spent = try world.waitUntilIdle(id)
        #expect(spent.tokens < 0.01)
        #expect(spent.lastReason == "explicit")

        let asked = Date()
        let second = try world.widgetctlSucceeding("reload", id, "--json").decoded(ReloadMethod.Reply.self)
        let deferred = try #require(second.decisions.first)
        #expect(deferred.decision == .deferred)
        #expect(deferred.because == .budget)
        #expect(deferred.at > asked.addingTimeInterval(86_400 - 60), "one token a day: the next one is a day away")

        let pending = try world.summary(id)
        #expect(pending.nextReason == "explicit")
        #expect(pending.nextReload.map { abs($0.timeIntervalSince(deferred.at)) < 0.002 } == true)
        #expect(pending.tokens < 0.01)

        let ledger = try world.ledger(id)
        #expect(ledger.capacity == 1)
        #expect(ledger.budgetedRuns24h == 1)
        #expect(ledger.exemptRuns24h == 1)
        #expect(ledger.nextTokenAt.map { abs($0.timeIntervalSince(deferred.at)) < 1 } == true)

        // The human form says it plainly, for a second widget's first deferral.
        let other = try world.add("plain")
        try world.waitUntilIdle(other)
        #expect(try world.widgetctlSucceeding("reload", other, "--json").decoded(ReloadMethod.Reply.self)
            .decisions.map(\.decision) == [.ran])
        try world.waitUntilIdle(other)
        let human = try world.widgetctlSucceeding("reload", other)
        #expect(human.standardOutput.hasPrefix("\(other): deferred until "), "\(human)")
        #expect(human.standardOutput.hasSuffix(" (budget exhausted)\n"), "\(human)")
    }
}
