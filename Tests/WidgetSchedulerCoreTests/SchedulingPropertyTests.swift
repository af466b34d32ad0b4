import Foundation
import Testing
import WidgetSchedulerCore
import WidgetSchedulerCoreTestKit

/// Invariants over thousands of random multi-day scenarios, replayed through the simulation (the real core).
/// The generator is seeded, so a failure names a seed that reproduces it.
struct SchedulingPropertyTests {
    static let scenarioCount = 2_000

    /// The kinds a random scenario draws from, each with a distinct provider behaviour.
    static let kinds = ["greedy", "hourly", "never", "flaky", "slow"]

    static func randomScenario(seed: UInt64) -> Scenario {
        var rng = SeededGenerator(seed: seed)
        let settings = SchedulerSettings(
            minimumInterval: [60, 300, 600].randomElement(using: &rng) ?? 300,
            dailyBudget: [24, 72, 144].randomElement(using: &rng) ?? 72,
            burstBudget: Double(Int.random(in: 1...12, using: &rng)),
            maxConcurrentRuns: Int.random(in: 1...3, using: &rng))
        let duration = Double(Int.random(in: 1...3, using: &rng)) * 86_400
        let widgets = (0..<Int.random(in: 1...5, using: &rng)).map { index in
            Scenario.Widget(id: "w\(index)", kind: kinds.randomElement(using: &rng) ?? "greedy",
                            family: "systemSmall", addedAt: Double(Int.random(in: 0...3_600, using: &rng)))
        }
        let responses: [String: [Scenario.Response]] = [
            "greedy": [.timeline(entries: [0], relevance: [1], policy: .after(60), runtime: 1)],
            "hourly": [.timeline(entries: [0, 1_800, 3_600], relevance: [nil, nil, nil], policy: .atEnd, runtime: 2)],
            "never": [.timeline(entries: [0, 600], relevance: [nil, nil], policy: .never, runtime: 1)],
            "flaky": [
                .failure(reason: "crash", runtime: 0),
                .timeline(entries: [0], relevance: [nil], policy: .after(900), runtime: 1),
                .failure(reason: "timeout", runtime: 30),
            ],
            "slow": [.timeline(entries: [0, 300], relevance: [nil, nil], policy: .atEnd, runtime: 400)],
        ]
        let ids = widgets.map(\.id)
        let presentKinds = Array(Set(widgets.map(\.kind))).sorted()
        let requests = (0..<Int.random(in: 0...60, using: &rng)).map { _ -> Scenario.Request in
            let at = Double(Int.random(in: 0..<Int(duration), using: &rng))
            let foreground = Int.random(in: 0..<6, using: &rng) == 0
            let target: Scenario.Target
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: target = .kind(presentKinds.randomElement(using: &rng) ?? "greedy")
            case 1: target = .all
            case 2: target = .widgets([ids.randomElement(using: &rng) ?? "w0"])
            default: target = .configure(ids.randomElement(using: &rng) ?? "w0")
            }
            return Scenario.Request(at: at, target: target, foreground: foreground)
        }
        let clock = (0..<Int.random(in: 0...3, using: &rng)).map { _ in
            Scenario.ClockJump(at: Double(Int.random(in: 0..<Int(duration), using: &rng)),
                               jump: [-86_400, -3_600, 3_600, 86_400].randomElement(using: &rng) ?? 0)
        }
        return Scenario(start: Date(timeIntervalSince1970: 1_767_600_000), duration: duration, settings: settings,
                        widgets: widgets, responses: responses, requests: requests, clock: clock)
    }

    static func reasonIsExempt(_ reason: String) -> Bool {
        !(RunReason(rawValue: reason)?.isBudgeted ?? true)
    }

    static func runs(of report: SimulationReport) -> [String: [SimulationReport.Run]] {
        Dictionary(grouping: report.runs, by: \.widget)
    }

    /// Every invariant of one random scenario, as failure messages (empty when all hold).
    static func violations(seed: UInt64) throws -> [String] {
        let scenario = randomScenario(seed: seed)
        let report = try Simulation.run(scenario)
        let settings = scenario.settings
        var problems: [String] = []
        let neverWidgets = Set(scenario.widgets.filter { $0.kind == "never" }.map(\.id))
        for (widget, runs) in runs(of: report) {
            // No two runs closer than the floor unless the later one is exempt.
            for (previous, run) in zip(runs, runs.dropFirst())
            where !reasonIsExempt(run.reason) && run.t - previous.t < settings.minimumInterval - 1e-6 {
                problems.append("\(widget) ran at \(previous.t) and again (\(run.reason)) at \(run.t)")
            }
            // Budgeted runs in any 24 h window ≤ dailyBudget + burstBudget, wall-clock jumps included.
            problems += windowViolations(widget, runs, limit: Int(settings.dailyBudget + settings.burstBudget))
            // Never-widgets run only on initial, configuration or explicit requests.
            if neverWidgets.contains(widget) {
                for run in runs where !["initial", "configuration", "explicit", "foreground"].contains(run.reason) {
                    problems.append("never-widget \(widget) ran for \(run.reason) at \(run.t)")
                }
            }
        }
        // Every request gets exactly one decision per widget it names.
        var decided: [Int: [String]] = [:]
        for decision in report.decisions { decided[decision.request, default: []].append(decision.widget) }
        for (index, request) in scenario.requests.enumerated() {
            let present = scenario.widgets.filter { $0.addedAt <= request.at }
            let expected: [String]
            switch request.target {
            case .kind(let kind): expected = present.filter { $0.kind == kind }.map(\.id)
            case .all: expected = present.map(\.id)
            case .widgets(let ids): expected = present.map(\.id).filter { ids.contains($0) }
            case .configure(let id): expected = present.map(\.id).filter { $0 == id }
            }
            if (decided[index] ?? []).sorted() != expected.sorted() {
                problems.append("request \(index) got decisions for \(decided[index] ?? []), expected \(expected)")
            }
        }
        // A "ran" decision comes with a run at that instant.
        let starts = Set(report.runs.map { "\($0.widget)@\($0.t)" })
        for decision in report.decisions where decision.decision == "ran"
        && !starts.contains("\(decision.widget)@\(decision.t)") {
            problems.append("\(decision.widget) was told ran at \(decision.t) without a run")
        }
        return problems.map { "seed \(seed): \($0)" }
    }

    static func windowViolations(_ widget: String, _ runs: [SimulationReport.Run], limit: Int) -> [String] {
        let budgeted = runs.filter { !reasonIsExempt($0.reason) }.map(\.t)
        var problems: [String] = []
        for (index, start) in budgeted.enumerated() {
            let inWindow = budgeted[index...].prefix { $0 < start + 86_400 }.count
            if inWindow > limit {
                problems.append("\(widget) made \(inWindow) budgeted runs in the 24 h from \(start) (limit \(limit))")
            }
        }
        return problems
    }

    @Test("random multi-day scenarios keep the floor, the budget, never-policies and one decision per widget")
    func invariantsHoldOverRandomScenarios() throws {
        var problems: [String] = []
        for seed in 0..<UInt64(Self.scenarioCount) {
            problems += try Self.violations(seed: seed)
        }
        #expect(problems.isEmpty, "\(problems.prefix(20).joined(separator: "\n"))")
    }

    @Test func wallClockJumpsMintNoBudget() throws {
        // The same scenario with and without wall-clock jumps: jumps may move policy runs, never add budget.
        for seed in 0..<UInt64(Self.scenarioCount / 4) {
            var jumped = Self.randomScenario(seed: seed)
            jumped.clock = [Scenario.ClockJump(at: 3_600, jump: 86_400), Scenario.ClockJump(at: 7_200, jump: 86_400),
                            Scenario.ClockJump(at: 10_800, jump: -86_400)]
            let report = try Simulation.run(jumped)
            let limit = Int(jumped.settings.dailyBudget + jumped.settings.burstBudget)
            for (widget, runs) in Self.runs(of: report) {
                let problems = Self.windowViolations(widget, runs, limit: limit)
                #expect(problems.isEmpty, "seed \(seed): \(problems)")
            }
        }
    }
}
