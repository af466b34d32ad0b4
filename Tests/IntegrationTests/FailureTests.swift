import Foundation
import Testing
import WidgetProtocol
import WidgetSchedulerTestKit

/// A provider that fails: the last good timeline stays, the widget backs off, and `list`, `budget` and `watch` say so.
@Suite("Provider failures through widgetctl")
struct FailureTests {
    @Test("a failing run keeps the last good timeline and puts the widget in backoff")
    func failureKeepsTheTimelineAndBacksOff() throws {
        let world = try DaemonWorld(config: "minimum-interval = 0\n")
        try world.addScriptedKind("flaky")
        try world.start()
        let id = try world.add("flaky")
        let good = try world.waitUntilIdle(id)
        #expect(good.currentEntry != nil)

        try world.setBehaviour(ScriptedProvider.Behaviour(exitStatus: 3), for: "flaky")
        #expect(try world.widgetctlSucceeding("reload", id, "--json").decoded(ReloadMethod.Reply.self)
            .decisions.map(\.decision) == [.ran])
        let failed = try eventually("the failed run") { () -> WidgetSummary? in
            let widget = try world.summary(id)
            return widget.lastReason == "explicit" && widget.state != "running" ? widget : nil
        }
        #expect(failed.lastOutcome == "exit")
        #expect(failed.state == "backoff")
        #expect(failed.currentEntry == good.currentEntry, "hosts keep showing the last good timeline")
        #expect(failed.nextReason == "retry")

        let ledger = try world.ledger(id)
        #expect(ledger.consecutiveFailures == 1)
        let backoff = try #require(ledger.backoffUntil)
        #expect(abs(backoff.timeIntervalSince(try #require(failed.lastReload)) - 30) < 1, "30 s after one failure")
        #expect(ledger.runs.last?.outcome == "exit")

        let deferred = try world.widgetctlSucceeding("reload", id, "--json").decoded(ReloadMethod.Reply.self)
        #expect(deferred.decisions.map(\.decision) != [.ran], "no run during the backoff")

        // An explicit foreground request gives the provider one more try at once; success clears the failure.
        try world.setBehaviour(ScriptedProvider.Behaviour(), for: "flaky")
        let forced = try world.widgetctlSucceeding("reload", id, "--foreground", "--json")
            .decoded(ReloadMethod.Reply.self)
        #expect(forced.decisions.map(\.decision) == [.ran], "\(forced)")
        let healed = try eventually("the foreground run") { () -> WidgetSummary? in
            let widget = try world.summary(id)
            return widget.lastReason == "foreground" && widget.state != "running" ? widget : nil
        }
        #expect(healed.lastOutcome == "success")
        #expect(try world.ledger(id).consecutiveFailures == 0)
    }

    @Test("after the threshold of consecutive failures a widget is quarantined until an explicit request")
    func repeatedFailuresQuarantine() throws {
        let world = try DaemonWorld(config: """
            minimum-interval = 0
            backoff-initial = 0.2
            quarantine-threshold = 3
            """)
        try world.addScriptedKind("broken", behaviour: ScriptedProvider.Behaviour(exitStatus: 1))
        try world.start()
        let id = try world.add("broken")
        let quarantined = try eventually("quarantine", timeout: 10) { () -> WidgetSummary? in
            let widget = try world.summary(id)
            return widget.state == "quarantined" ? widget : nil
        }
        #expect(quarantined.currentEntry == nil, "nothing good to show yet")
        #expect(quarantined.nextReload == nil, "no automatic run while quarantined")
        let ledger = try world.ledger(id)
        #expect(ledger.quarantined)
        #expect(ledger.consecutiveFailures == 3)
        #expect(world.runs.filter { $0.event == "start" }.map(\.reason) == ["initial", "retry", "retry"])

        try world.setBehaviour(ScriptedProvider.Behaviour(), for: "broken")
        let reply = try world.widgetctlSucceeding("reload", id, "--json").decoded(ReloadMethod.Reply.self)
        #expect(reply.decisions.map(\.decision) == [.ran], "an explicit request gives one more try at once")
        let healed = try eventually("the explicit run") { () -> WidgetSummary? in
            let widget = try world.summary(id)
            return widget.lastReason == "explicit" && widget.state != "running" ? widget : nil
        }
        #expect(healed.lastOutcome == "success")
        #expect(healed.state == "idle")
        #expect(try world.ledger(id).quarantined == false)
    }
}
