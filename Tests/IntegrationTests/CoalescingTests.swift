import Foundation
import Testing
import WidgetProtocol
import WidgetSchedulerTestKit

/// Many `widgetctl reload` processes at once against a slow provider: every request is answered, each widget runs
/// at most once at a time, and all the requests share one follow-up run.
@Suite("Coalescing of concurrent reloads")
struct CoalescingTests {
    static let requests = 8

    @Test("concurrent reloads of a slow kind: one run in flight per widget, one follow-up, every request answered")
    func concurrentReloadsCoalesce() throws {
        let world = try DaemonWorld(config: """
            minimum-interval = 0
            max-concurrent-runs = 4
            """)
        try world.addScriptedKind("slow")
        try world.start()
        let ids = [try world.add("slow"), try world.add("slow")]
        for id in ids { try world.waitUntilIdle(id) }
        try world.setBehaviour(ScriptedProvider.Behaviour(sleep: 1.5), for: "slow")

        let started = try (0..<Self.requests).map { _ in
            try world.startWidgetctl(["reload", "--kind", "slow", "--json"])
        }
        let results = started.map { $0.wait() }
        var verdicts: [String: [ReloadDecision.Verdict]] = [:]
        for result in results {
            #expect(result.status == 0, "\(result)")
            let reply = try result.decoded(ReloadMethod.Reply.self)
            #expect(Set(reply.decisions.map(\.widget)) == Set(ids), "one decision per widget: \(result)")
            for decision in reply.decisions { verdicts[decision.widget, default: []].append(decision.decision) }
        }
        for id in ids {
            let answered = verdicts[id] ?? []
            #expect(answered.count == Self.requests, "every request answered for \(id)")
            #expect(answered.filter { $0 == .ran }.count == 1, "\(id): one request started the run: \(answered)")
            #expect(answered.filter { $0 == .coalesced }.count == Self.requests - 1, "\(id): \(answered)")
        }

        // Policy never: once the follow-up is done nothing else is planned, so the log is final.
        for id in ids {
            _ = try eventually("\(id): the follow-up run to end", timeout: 10) { () -> Bool? in
                let widget = try world.summary(id)
                let ends = world.runs.filter { $0.widget == id && $0.reason == "explicit" && $0.event == "end" }
                return ends.count >= 2 && widget.state == "idle" && widget.nextReload == nil ? true : nil
            }
        }
        let runs = world.runs.filter { $0.reason == "explicit" }
        for id in ids {
            let own = runs.filter { $0.widget == id }.sorted { $0.time < $1.time }
            #expect(own.map(\.event) == ["start", "end", "start", "end"],
                    "\(id): one run, then one follow-up, never two at once: \(own)")
        }
        for id in ids {
            let ledger = try world.ledger(id)
            #expect(ledger.budgetedRuns24h == 2, "\(id): \(Self.requests) requests cost two runs")
        }
    }
}
