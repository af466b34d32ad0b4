import Foundation

/// The human form of a simulation: one line per run, decision and entry change, in time order, then a summary.
public enum SimulationTranscript {
    /// Renders `report` of `scenario` as readable text.
    public static func render(_ report: SimulationReport, of scenario: Scenario) -> String {
        struct Line {
            var t: Double
            var order: Int
            var text: String
        }
        var lines: [Line] = []
        for run in report.runs {
            let outcome = run.outcome ?? "still running"
            lines.append(Line(t: run.t, order: 0, text: "\(run.widget)  run (\(run.reason)) → \(outcome)"))
        }
        for decision in report.decisions {
            var text = "\(decision.widget)  request #\(decision.request): \(decision.decision)"
            switch decision.decision {
            case "deferred":
                let because = decision.because.flatMap(DeferralReason.init(rawValue:))?.phrase ?? "?"
                text += " until \(clock(decision.at)) (\(because))"
            case "coalesced":
                text += " with the run at \(clock(decision.at))"
            default:
                break
            }
            lines.append(Line(t: decision.t, order: 1, text: text))
        }
        for entry in report.entries {
            lines.append(Line(t: entry.t, order: 2, text: "\(entry.widget)  entry \(entry.date) is now current"))
        }
        lines.sort { $0.t != $1.t ? $0.t < $1.t : $0.order < $1.order }

        let settings = scenario.settings
        var out = "Simulating \(clock(scenario.duration)) from \(Simulation.format(scenario.start)): "
        out += "minimum interval \(number(settings.minimumInterval)) s, \(number(settings.dailyBudget)) reloads/day, "
        out += "burst \(number(settings.burstBudget)), \(Counted.phrase(scenario.widgets.count, "widget"))\n\n"
        out += "  elapsed     wall clock            event\n"
        for line in lines {
            let wall = Simulation.format(wallClock(at: line.t, in: scenario))
            out += "  " + pad(clock(line.t), 10) + "  " + pad(wall, 20) + "  " + line.text + "\n"
        }
        out += "\nSummary\n"
        for widget in report.widgets {
            let runs = report.runs.filter { $0.widget == widget.id }
            var byReason: [String: Int] = [:]
            for run in runs { byReason[run.reason, default: 0] += 1 }
            let reasons = byReason.keys.sorted().map { "\($0) \(byReason[$0] ?? 0)" }.joined(separator: ", ")
            let failures = runs.filter { $0.outcome == "failure" }.count
            let next = widget.nextReload.map { "next reload at \(clock($0)) (\(widget.reason ?? "?"))" }
                ?? "no reload planned"
            out += "  \(widget.id): \(widget.state), \(Counted.phrase(runs.count, "run")) [\(reasons)], "
            out += "\(failures) failed, "
            out += "\(number(widget.tokens)) token(s) left, \(next)\n"
        }
        return out
    }

    /// Elapsed seconds as d+hh:mm:ss.
    static func clock(_ seconds: Double) -> String {
        let total = Int(saturating: seconds.rounded(.down))
        let days = total / 86_400
        let rest = total % 86_400
        let text = String(format: "%02d:%02d:%02d", rest / 3600, rest % 3600 / 60, rest % 60)
        return days > 0 ? "\(days)d+\(text)" : text
    }

    private static func wallClock(at t: Double, in scenario: Scenario) -> Date {
        let shift = scenario.clock.filter { $0.at <= t }.reduce(0) { $0 + $1.jump }
        return scenario.start.addingTimeInterval(t + shift)
    }

    private static func number(_ value: Double) -> String {
        Int64(exactly: value).map { String($0) } ?? String(format: "%.2f", value)
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
