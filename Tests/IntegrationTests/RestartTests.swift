import Foundation
import Glibc
import Testing
import WidgetProtocol
import WidgetSchedulerTestKit

/// The daemon killed with SIGKILL and started again on the same state, and SIGHUP re-reading manifests and the
/// configuration: nothing the user set up is lost, and no spent token comes back.
@Suite("Restart and reload of the daemon")
struct RestartTests {
    @Test("kill -9 with a run in flight, then a restart: widgets and configurations intact, no token refunded")
    func killNineThenRestartKeepsStateAndSpending() throws {
        // No refill (daily-budget 0), so any token that came back would show.
        let world = try DaemonWorld(config: """
            minimum-interval = 0
            daily-budget = 0
            """)
        try world.addScriptedKind("plain", widget: """
            [widget.parameters.location]
            type = "string"
            default = "Paris"
            """)
        try world.addScriptedKind("slow")
        try world.start()
        let plain = try world.add("plain", "location=Lyon")
        let slow = try world.add("slow")
        try world.waitUntilIdle(plain)
        try world.waitUntilIdle(slow)
        let configured = try world.widgetctlSucceeding("configure", plain, "--param", "location=Oslo", "--json")
        #expect(configured.standardOutput.contains("\"decision\""), "\(configured)")
        try world.waitUntilIdle(plain)
        #expect(try world.widgetctlSucceeding("reload", plain, "--json").decoded(ReloadMethod.Reply.self)
            .decisions.map(\.decision) == [.ran])
        try world.waitUntilIdle(plain)
        // Its timeline must be stored before the kill: the check below compares the entry shown after the restart.
        try world.waitUntilStateWritten()

        // A run of `slow` is in flight when the daemon dies: its token is spent and must stay spent.
        try world.setBehaviour(ScriptedProvider.Behaviour(sleep: 2), for: "slow")
        #expect(try world.widgetctlSucceeding("reload", slow, "--json").decoded(ReloadMethod.Reply.self)
            .decisions.map(\.decision) == [.ran])
        _ = try eventually("the slow run to start") {
            world.runs.contains { $0.widget == slow && $0.reason == "explicit" && $0.event == "start" } ? true : nil
        }
        let widgetsBefore = try world.list()
        let tokensBefore = Dictionary(uniqueKeysWithValues: try world.widgetctlSucceeding("budget", "--json")
            .decoded([BudgetMethod.Ledger].self).map { ($0.widget, $0.tokens) })
        #expect(tokensBefore[plain] == 11)
        #expect(tokensBefore[slow] == 11)

        world.stopDaemon()
        try world.setBehaviour(ScriptedProvider.Behaviour(), for: "slow")
        try world.start()

        let widgetsAfter = try world.list()
        #expect(widgetsAfter.map(\.id) == widgetsBefore.map(\.id))
        for (before, after) in zip(widgetsBefore, widgetsAfter) {
            #expect(after.kind == before.kind)
            #expect(after.family == before.family)
            #expect(after.configuration == before.configuration)
        }
        let plainAfter = try #require(widgetsAfter.first { $0.id == plain })
        #expect(plainAfter.configuration == ["location": .string("Oslo")])
        #expect(plainAfter.currentEntry == widgetsBefore.first { $0.id == plain }?.currentEntry,
                "the last good timeline survives")
        let ledgersAfter = try world.widgetctlSucceeding("budget", "--json").decoded([BudgetMethod.Ledger].self)
        for ledger in ledgersAfter {
            let before = try #require(tokensBefore[ledger.widget])
            #expect(ledger.tokens <= before,
                    "\(ledger.widget): \(before) tokens before the kill, \(ledger.tokens) after")
        }
        #expect(ledgersAfter.first { $0.widget == plain }?.tokens == tokensBefore[plain])

        // The interrupted run is pending again with its reason and runs after the start (catch-up).
        let caughtUp = try eventually("the interrupted run to run again") { () -> WidgetSummary? in
            let widget = try world.summary(slow)
            let starts = world.runs.filter { $0.widget == slow && $0.reason == "explicit" && $0.event == "start" }
            return starts.count >= 2 && widget.lastOutcome == "success" && widget.state != "running" ? widget : nil
        }
        #expect(caughtUp.lastReason == "explicit")
    }

    /// A state-changing call whose reply the client got, and how to tell after a restart that it was kept.
    enum AcknowledgedChange: String, CaseIterable, Sendable {
        case add, configure, reload
    }

    @Test("a change the daemon acknowledged survives a kill -9 sent the moment the reply arrives",
          arguments: AcknowledgedChange.allCases)
    func acknowledgedChangeSurvivesKillNine(_ change: AcknowledgedChange) throws {
        let world = try DaemonWorld(config: """
            minimum-interval = 0
            daily-budget = 0
            """)
        try world.addScriptedKind("plain", widget: """
            [widget.parameters.location]
            type = "string"
            default = "Paris"
            """)
        try world.start()
        let id = try world.add("plain")
        try world.waitUntilIdle(id)
        let prefix = #"{"method":"io.widgetscheduler.Scheduler."#
        // Several rounds: the window between the reply and a late write is short, so one round could miss it.
        for round in 1...4 {
            // The run a kill interrupted is pending again after the restart, and a reload would join it: the round
            // starts once it has run, so that its reload is the one that starts a run.
            _ = try eventually("round \(round): \(id) to have nothing running or planned") { () -> Bool? in
                let widget = try world.summary(id)
                return widget.state != "running" && widget.nextReload == nil ? true : nil
            }
            let tokensBefore = try world.ledger(id).tokens
            let socket = try RawVarlinkConnection(path: world.socketPath)
            switch change {
            case .add:
                socket.send(message: prefix + #"Add","parameters":{"kind":"plain","parameters":{"location":"A"}}}"#)
            case .configure:
                socket.send(message: prefix + #"Configure","parameters":{"id":"\#(id)","parameters":{"location":"#
                    + #""City\#(round)"}}}"#)
            case .reload: socket.send(message: prefix + #"Reload","parameters":{"widgets":["\#(id)"]}}"#)
            }
            let reply = socket.receive()
            world.stopDaemon()
            guard case .message(let text) = reply, let answer = JSONValue(jsonText: text)?.objectValue,
                  answer["error"] == nil
            else {
                Issue.record("round \(round): expected a reply, got \(reply)")
                return
            }
            try world.start()
            switch change {
            case .add:
                let added = try #require(answer["parameters"]?.objectValue?["id"]?.stringValue)
                #expect(try world.list().contains { $0.id == added },
                        "round \(round): acknowledged \(added) is lost")
            case .configure:
                #expect(try world.summary(id).configuration == ["location": .string("City\(round)")],
                        "round \(round): the acknowledged configuration is lost")
            case .reload:
                let tokensAfter = try world.ledger(id).tokens
                #expect(tokensAfter <= tokensBefore - 1,
                        "round \(round): the token of the run that started came back; the reply was \(text)")
            }
            try world.waitUntilIdle(id)
        }
    }

    @Test("SIGTERM ends a run in flight, closes watch streams and exits 0; the run is pending after a restart")
    func terminateStopsCleanly() throws {
        let world = try DaemonWorld(config: """
            minimum-interval = 0
            daily-budget = 0
            """)
        try world.addScriptedKind("slow")
        try world.start()
        let id = try world.add("slow")
        try world.waitUntilIdle(id)
        try world.setBehaviour(ScriptedProvider.Behaviour(sleep: 30), for: "slow")
        let watch = try world.streamWidgetctl(["watch", "--json"])
        // The first reload starts the slow run, later ones join it; each decision is an event on the stream.
        _ = try eventually("the watch stream to carry a decision", interval: 0.2) { () -> Bool? in
            if !watch.lines.isEmpty { return true }
            _ = try world.widgetctlSucceeding("reload", id)
            return nil
        }
        _ = try eventually("the slow run to start") {
            world.runs.contains { $0.reason == "explicit" && $0.event == "start" } ? true : nil
        }
        let tokens = try world.ledger(id).tokens

        let asked = Date()
        world.signal(SIGTERM)
        let exit = try #require(world.waitForDaemonExit(timeout: 10), "the daemon stops within 10 s")
        #expect(exit == .exited(0))
        #expect(Date().timeIntervalSince(asked) < 5, "a 30 s run does not hold the stop up")
        _ = try eventually("the watch stream to end") { watch.hasEnded ? true : nil }
        watch.stop()
        #expect(watch.process.termination == .exited(0), "the stream ended cleanly")
        #expect(!world.runs.contains { $0.reason == "explicit" && $0.event == "end" }, "the run was ended")

        try world.setBehaviour(ScriptedProvider.Behaviour(), for: "slow")
        try world.start()
        #expect(try world.ledger(id).tokens <= tokens, "no refund for the ended run")
        let rerun = try eventually("the ended run to run again") { () -> WidgetSummary? in
            let widget = try world.summary(id)
            return widget.lastReason == "explicit" && widget.lastOutcome == "success" ? widget : nil
        }
        #expect(rerun.state == "idle")
    }

    @Test("a policy date that passed while the daemon was down is caught up after the start")
    func policyDueDuringDowntimeRunsAfterStart() throws {
        let world = try DaemonWorld(config: "minimum-interval = 0\n")
        // Due 3 s after the first run: time for the state write and the kill first, on a loaded machine too.
        try world.addScriptedKind("soon", behaviour: ScriptedProvider.Behaviour(policy: .integer(3)))
        try world.start()
        let id = try world.add("soon")
        let added = try world.waitUntilIdle(id)
        let due = try #require(added.nextReload)
        #expect(added.nextReason == "policy")
        try world.setBehaviour(ScriptedProvider.Behaviour(), for: "soon")
        // The policy comes with the timeline, which must be stored before the kill, or the initial run runs again.
        try world.waitUntilStateWritten()
        world.stopDaemon()
        Thread.sleep(until: due.addingTimeInterval(0.2))

        let restarted = Date().timeIntervalSince1970
        try world.start()
        let caughtUp = try eventually("the missed policy run") { () -> WidgetSummary? in
            let widget = try world.summary(id)
            return widget.lastReason == "policy" && widget.lastOutcome == "success" ? widget : nil
        }
        #expect(caughtUp.lastReload.map { $0 > due } == true)
        #expect(world.runs.filter { $0.reason == "policy" && $0.event == "start" && $0.time >= restarted }.count == 1,
                "one run, no storm")
    }

    @Test("SIGHUP re-reads the manifests and the configuration, and keeps the widgets")
    func hangupReReadsManifests() throws {
        let world = try DaemonWorld(config: "minimum-interval = 300\n")
        try world.addScriptedKind("plain")
        try world.start()
        let id = try world.add("plain")
        let before = try world.waitUntilIdle(id)
        #expect(try !world.widgetctlSucceeding("kinds", "--json").decoded([KindsMethod.Kind].self)
            .contains { $0.kind == "hello" })

        try world.write("""
            #!/bin/sh
            cat > /dev/null
            printf '{"entries":[{"date":"%s","content":{"text":"hello from sh"}}],"policy":"never"}\\n' \\
                "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
            """, to: "hello.sh", executable: true)
        try world.write("""
            exec = "./hello.sh"
            [[widget]]
            kind = "hello"
            display-name = "Hello"
            """, to: "hello.toml")
        try "minimum-interval = 42\n".write(to: world.configURL, atomically: true, encoding: .utf8)
        world.signal(SIGHUP)

        let kinds = try eventually("the new kind after SIGHUP", timeout: 5) { () -> [KindsMethod.Kind]? in
            let kinds = try world.widgetctlSucceeding("kinds", "--json").decoded([KindsMethod.Kind].self)
            return kinds.contains { $0.kind == "hello" } ? kinds : nil
        }
        #expect(kinds.first { $0.kind == "hello" }?.displayName == "Hello")
        #expect(kinds.contains { $0.kind == "plain" })
        let human = try world.widgetctlSucceeding("kinds")
        #expect(human.standardOutput.contains("hello"), "\(human)")

        let status = try world.widgetctlSucceeding("status", "--json").decoded(StatusMethod.Reply.self)
        #expect(status.settings.minimumInterval == 42)
        #expect(status.pid == Int(world.daemonPID), "the same process: reloaded, not restarted")

        let after = try world.summary(id)
        #expect(after.configuration == before.configuration)
        #expect(after.lastReload == before.lastReload)
        #expect(after.currentEntry == before.currentEntry)

        let hello = try world.add("hello")
        let added = try world.waitUntilIdle(hello)
        #expect(added.lastOutcome == "success")
        #expect(added.currentEntry?.content == .object(["text": .string("hello from sh")]))
    }
}
