import Foundation
import Testing
import WidgetSchedulerCore

/// `simulate` on small scenarios whose outcome can be worked out by hand.
struct SimulationTests {
    static func run(_ json: String) throws -> SimulationReport {
        try Simulation.run(try ScenarioDecoder.decode(Data(json.utf8)))
    }

    @Test func theIssueExampleGivesTheDocumentedRunsDecisionsAndEntries() throws {
        let report = try Self.run("""
            { "start": "2026-01-05T08:00:00Z", "duration": 2000,
              "widgets": [ { "id": "w1", "kind": "weather", "family": "systemSmall", "addedAt": 0 } ],
              "responses": { "weather": [ { "entries": [0, 600, 1200], "relevance": [5, 0, 9], "policy": "atEnd" } ] },
              "requests": [ { "at": 900, "kind": "weather" }, { "at": 950, "all": true, "foreground": true },
                            { "at": 1000, "widget": "w1", "configure": { "location": "Paris" } } ] }
            """)
        #expect(report.runs.map(\.t) == [0, 900, 950, 1000])
        #expect(report.runs.map(\.reason) == ["initial", "explicit", "foreground", "configuration"])
        #expect(report.runs.allSatisfy { $0.outcome == "success" })
        #expect(report.decisions.map(\.decision) == ["ran", "ran", "ran"])
        #expect(report.decisions.map(\.request) == [0, 1, 2])
        #expect(report.entries.first == SimulationReport.EntryChange(t: 0, widget: "w1", date: "2026-01-05T08:00:00Z"))
        // Last timeline at 1 000: entries 1 000, 1 600, 2 200; atEnd due at 2 200, after the simulation ends.
        #expect(report.entries.map(\.t) == [0, 600, 900, 950, 1_000, 1_600])
        #expect(report.widgets == [SimulationReport.WidgetState(id: "w1", state: "active", tokens: 11.917,
                                                                nextReload: 2_200, reason: "policy")])
    }

    @Test func theJSONReportHasTheContractShape() throws {
        let report = try Self.run("""
            { "start": "2026-01-05T08:00:00Z", "duration": 400,
              "widgets": [ { "id": "w1", "kind": "k" } ],
              "responses": { "k": [ { "entries": [], "policy": "never" } ] },
              "requests": [ { "at": 100, "kind": "k" } ] }
            """)
        let object = try JSONSerialization.jsonObject(with: Data(report.jsonText().utf8)) as? [String: Any]
        #expect(Set(object?.keys ?? [:].keys) == ["runs", "decisions", "entries", "widgets"])
        let decision = (object?["decisions"] as? [[String: Any]])?.first
        #expect(decision?["decision"] as? String == "deferred")
        #expect(decision?["because"] as? String == "floor")
        #expect((decision?["at"] as? NSNumber)?.doubleValue == 300)
        let widget = (object?["widgets"] as? [[String: Any]])?.first
        #expect(Set(widget?.keys ?? [:].keys) == ["id", "state", "tokens", "nextReload", "reason"])
    }

    @Test func aGreedyWidgetSettlesAtOneRunPerTokenInterval() throws {
        let report = try Self.run("""
            { "start": "2026-01-05T08:00:00Z", "duration": 172800,
              "widgets": [ { "id": "g", "kind": "greedy" } ],
              "responses": { "greedy": [ { "entries": [0], "policy": { "after": 60 } } ] } }
            """)
        let starts = report.runs.map(\.t)
        let gaps = zip(starts.dropFirst(), starts).map { $0 - $1 }
        #expect(gaps.prefix(12).allSatisfy { $0 == 300 })
        let settled = gaps.suffix(100)
        #expect(settled.allSatisfy { abs($0 - 1_200) < 1e-3 })
    }

    @Test func failuresBackOffAndQuarantineInTheSimulation() throws {
        let report = try Self.run("""
            { "start": "2026-01-05T08:00:00Z", "duration": 864000,
              "widgets": [ { "id": "f", "kind": "flaky" } ],
              "responses": { "flaky": [ { "fail": "crash" } ] } }
            """)
        #expect(report.runs.count == 10)
        #expect(report.widgets.first?.state == "quarantined")
        #expect(report.widgets.first?.nextReload == nil)
    }

    @Test func aScenarioThatSpinsWithoutTimePassingIsRejected() {
        #expect(throws: ScenarioError.self) {
            try Self.run("""
                { "start": "2026-01-05T08:00:00Z", "duration": 10,
                  "settings": { "developerKinds": ["k"] },
                  "widgets": [ { "id": "w", "kind": "k" } ],
                  "responses": { "k": [ { "entries": [], "policy": "atEnd" } ] } }
                """)
        }
    }

    /// Widgets added at fractional instants that reload 600 s after each run: their policy runs fall due within
    /// a few seconds of one another.
    static func staggered(window: Double) -> String {
        """
        { "start": "2026-01-05T08:00:00Z", "duration": 1000,
          "settings": { "coalesceWindow": \(window), "maxConcurrentRuns": 8 },
          "widgets": [ { "id": "a", "kind": "k", "addedAt": 0.7 }, { "id": "b", "kind": "k", "addedAt": 1.2 },
                       { "id": "c", "kind": "k", "addedAt": 2 }, { "id": "d", "kind": "k", "addedAt": 3.4 } ],
          "responses": { "k": [ { "entries": [0], "policy": { "after": 600 } } ] } }
        """
    }

    @Test func aCoalesceWindowServesRunsDueCloseTogetherWithFewerWakeUps() throws {
        let exact = try Self.run(Self.staggered(window: 0)).runs.filter { $0.reason == "policy" }
        let windowed = try Self.run(Self.staggered(window: 5)).runs.filter { $0.reason == "policy" }
        #expect(exact.map(\.t) == [600.7, 601.2, 602, 603.4])
        #expect(windowed.map(\.t) == [605, 605, 605, 605], "one wake-up at the end of the 5 s slot")
        #expect(Set(windowed.map(\.t)).count < Set(exact.map(\.t)).count)
        for (due, run) in zip(exact, windowed) {
            #expect(run.t >= due.t && run.t - due.t <= 5, "never before it is due, at most the window after")
        }
    }

    @Test func aCoalesceWindowDelaysNoEntryChange() throws {
        let report = try Self.run("""
            { "start": "2026-01-05T08:00:00Z", "duration": 100,
              "settings": { "coalesceWindow": 30 },
              "widgets": [ { "id": "w", "kind": "k", "addedAt": 0.5 } ],
              "responses": { "k": [ { "entries": [0, 10.25, 20.5], "policy": "never" } ] } }
            """)
        #expect(report.entries.map(\.t) == [0.5, 10.75, 21])
    }

    @Test func everyDecisionNamesWhenItsRunStarts() throws {
        // One run slot; each run takes 5 s. At 100 both widgets are asked for: f takes the slot, g waits for it.
        let report = try Self.run("""
            { "start": "2026-01-05T08:00:00Z", "duration": 2000,
              "settings": { "maxConcurrentRuns": 1, "coalesceWindow": 0 },
              "widgets": [ { "id": "f", "kind": "f" }, { "id": "g", "kind": "g" } ],
              "responses": { "f": [ { "entries": [0], "policy": "never", "runtime": 5 } ],
                             "g": [ { "entries": [0], "policy": "never", "runtime": 2 } ] },
              "requests": [ { "at": 400, "kind": "f" }, { "at": 400, "kind": "g" }, { "at": 402, "kind": "g" },
                            { "at": 500, "kind": "f" }, { "at": 600, "kind": "f" } ] }
            """)
        let decisions = report.decisions.map {
            "\($0.request) \($0.widget) \($0.decision) \($0.at) \($0.because ?? "-")"
        }
        #expect(decisions == [
            "0 f ran 400.0 -", "1 g deferred 400.0 concurrency", "2 g deferred 402.0 concurrency",
            "3 f deferred 700.0 floor", "4 f coalesced 700.0 -",
        ])
        for decision in report.decisions {
            let start = report.runs.first { $0.widget == decision.widget && $0.t >= decision.t }?.t
            let run = try #require(start, "request \(decision.request) got a run")
            if decision.because == "concurrency" {
                #expect(run >= decision.at, "waiting for a slot: not before the decision's time")
            } else {
                #expect(run == decision.at, "request \(decision.request): the run starts when the decision says")
            }
        }
        #expect(report.runs.first { $0.widget == "g" && $0.t >= 400 }?.t == 405)
    }
}
