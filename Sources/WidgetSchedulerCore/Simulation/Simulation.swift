import Foundation

/// Replays a scenario through the very same `Scheduler` the daemon uses, on a simulated clock: days in milliseconds.
public struct Simulation {
    /// A run in flight on the simulated clock.
    private struct Flight {
        var finishAt: Double
        var sequence: Int
        var widget: String
        var runIndex: Int
        var outcome: RunOutcome
    }

    /// The simulation stops with this error rather than spin when a scenario makes runs without time passing.
    public static let maxStepsPerInstant = 10_000

    public let scenario: Scenario
    private var scheduler: Scheduler
    private var report = SimulationReport()
    private var flights: [Flight] = []
    private var responseCursor: [String: Int] = [:]
    private var wallShift: Double = 0
    private var sequence = 0

    public init(_ scenario: Scenario) {
        self.scenario = scenario
        self.scheduler = Scheduler(settings: scenario.settings)
    }

    /// Runs the scenario from t = 0 to its duration and returns what happened.
    public static func run(_ scenario: Scenario) throws -> SimulationReport {
        var simulation = Simulation(scenario)
        return try simulation.run()
    }

    private mutating func run() throws -> SimulationReport {
        let additions = scenario.widgets.sorted { $0.addedAt < $1.addedAt }
        let requests = scenario.requests.enumerated().sorted { $0.element.at < $1.element.at }
        let jumps = scenario.clock.sorted { $0.at < $1.at }
        var nextAddition = 0
        var nextRequest = 0
        var nextJump = 0
        var now = 0.0
        var stepsAtInstant = 0

        while true {
            var next = Double.infinity
            if nextAddition < additions.count { next = min(next, additions[nextAddition].addedAt) }
            if nextRequest < requests.count { next = min(next, requests[nextRequest].element.at) }
            if nextJump < jumps.count { next = min(next, jumps[nextJump].at) }
            if let flight = flights.min(by: Self.finishesFirst) { next = min(next, flight.finishAt) }
            if let wakeup = scheduler.nextWakeup() { next = min(next, wakeup) }
            guard next <= scenario.duration else { break }
            if next > now { stepsAtInstant = 0 }
            now = max(now, next)

            while let index = flights.indices.filter({ flights[$0].finishAt <= now })
                .min(by: { Self.finishesFirst(flights[$0], flights[$1]) }) {
                stepsAtInstant += 1
                guard stepsAtInstant < Self.maxStepsPerInstant else {
                    throw ScenarioError(path: "", message: "the scenario makes runs without time passing at "
                                        + "t=\(now); give the responses a runtime or the settings a minimum interval")
                }
                let flight = flights.remove(at: index)
                report.runs[flight.runIndex].outcome = flight.outcome.isSuccess ? "success" : "failure"
                apply(scheduler.handle(.runFinished(id: flight.widget, outcome: flight.outcome), at: instant(now)),
                      at: now, request: nil)
            }
            while nextJump < jumps.count, jumps[nextJump].at <= now {
                wallShift += jumps[nextJump].jump
                nextJump += 1
            }
            while nextAddition < additions.count, additions[nextAddition].addedAt <= now {
                let widget = additions[nextAddition]
                apply(scheduler.handle(.widgetAdded(id: widget.id, kind: widget.kind), at: instant(now)),
                      at: now, request: nil)
                nextAddition += 1
            }
            while nextRequest < requests.count, requests[nextRequest].element.at <= now {
                let (index, request) = requests[nextRequest]
                apply(scheduler.handle(event(for: request, index: index), at: instant(now)), at: now, request: index)
                nextRequest += 1
            }
            apply(scheduler.handle(.tick, at: instant(now)), at: now, request: nil)
        }
        finish(at: scenario.duration)
        return report
    }

    private func event(for request: Scenario.Request, index: Int) -> SchedulerEvent {
        switch request.target {
        case .kind(let kind): return .reloadRequested(.kind(kind), foreground: request.foreground, request: index)
        case .all: return .reloadRequested(.all, foreground: request.foreground, request: index)
        case .widgets(let ids): return .reloadRequested(.widgets(ids), foreground: request.foreground, request: index)
        case .configure(let id): return .configurationChanged(id: id, request: index)
        }
    }

    private func instant(_ t: Double) -> Instant {
        Instant(monotonic: t, wall: scenario.start.addingTimeInterval(t + wallShift))
    }

    private mutating func apply(_ actions: [SchedulerAction], at t: Double, request: Int?) {
        for action in actions {
            switch action {
            case .startRun(let widget, let reason):
                report.runs.append(SimulationReport.Run(t: Self.rounded(t), widget: widget, reason: reason.rawValue,
                                                        outcome: nil))
                let response = nextResponse(for: widget)
                sequence += 1
                flights.append(Flight(finishAt: t + response.runtime, sequence: sequence, widget: widget,
                                      runIndex: report.runs.count - 1, outcome: outcome(of: response, startedAt: t)))
            case .decided(let decided):
                report.decisions.append(SimulationReport.DecisionRecord(
                    t: Self.rounded(t), request: decided.request, widget: decided.widget,
                    decision: decided.decision.name, at: Self.rounded(decided.decision.at),
                    because: decided.decision.because?.rawValue))
            case .entryChanged(let widget, let entry):
                report.entries.append(SimulationReport.EntryChange(t: Self.rounded(t), widget: widget,
                                                                   date: RFC3339.string(from: entry.date)))
            // A scenario has no callers asking providers.
            case .backedOff, .quarantined, .budgetExhausted, .wallClockJumped, .stateChanged,
                 .providerRequestDecided, .startProviderRequest:
                break
            }
        }
    }

    private mutating func nextResponse(for widget: String) -> Scenario.Response {
        let kind = scheduler.widgets[widget]?.kind ?? ""
        let list = scenario.responses[kind] ?? [.failure(reason: "invalid", runtime: 0)]
        let cursor = responseCursor[kind, default: 0]
        responseCursor[kind] = cursor + 1
        return list[min(cursor, list.count - 1)]
    }

    private func outcome(of response: Scenario.Response, startedAt t: Double) -> RunOutcome {
        switch response {
        case .failure(let scripted, _):
            // A scripted crash is a provider killed by a signal; the other scripted failures keep their names.
            let reason = RunFailureReason(rawValue: scripted) ?? .signal
            return .failure(reason: reason, detail: "scripted \(scripted)")
        case .timeline(let offsets, let scores, let policy, _):
            let start = instant(t).wall
            let entries = zip(offsets, scores).map { offset, score in
                TimelineEntry(date: start.addingTimeInterval(offset),
                              relevance: score.map { TimelineEntryRelevance(score: $0) })
            }
            let reloadPolicy: ReloadPolicy
            switch policy {
            case .atEnd: reloadPolicy = .atEnd
            case .never: reloadPolicy = .never
            case .after(let offset): reloadPolicy = .after(start.addingTimeInterval(offset))
            }
            return .success(Timeline(entries: entries, policy: reloadPolicy))
        }
    }

    private mutating func finish(at t: Double) {
        let now = instant(t)
        report.widgets = scheduler.widgetIDs.compactMap { id in
            guard let widget = scheduler.widgets[id] else { return nil }
            let plan = scheduler.plannedRun(for: id, at: now)
            return SimulationReport.WidgetState(
                id: id, state: widget.quarantined ? "quarantined" : "active",
                tokens: Self.rounded(scheduler.tokens(of: id, at: now) ?? 0, places: 3),
                nextReload: plan.map { Self.rounded($0.at) }, reason: plan?.reason.rawValue)
        }
    }

    private static func finishesFirst(_ lhs: Flight, _ rhs: Flight) -> Bool {
        lhs.finishAt != rhs.finishAt ? lhs.finishAt < rhs.finishAt : lhs.sequence < rhs.sequence
    }

    /// Rounds away float noise (1200.0000000001 → 1200) so reports are stable and readable.
    static func rounded(_ value: Double, places: Int = 6) -> Double {
        let scale = pow(10, Double(places))
        return (value * scale).rounded() / scale
    }

    /// RFC 3339 in UTC with a Z, with milliseconds only when needed.
    public static func format(_ date: Date) -> String {
        RFC3339.string(from: date)
    }
}
