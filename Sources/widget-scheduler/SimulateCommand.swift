import ArgumentParser
import Foundation
import WidgetProtocol
import WidgetSchedulerCore

/// `widget-scheduler simulate SCENARIO.json [--json]`: days of scheduling in milliseconds, through the real core.
struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Replay a scenario on a simulated clock through the scheduler's rules.",
        discussion: "The scenario format is described in docs/scheduling.md. Example: examples/scenarios/weather.json."
    )

    @Argument(help: "The scenario file (JSON).", completion: .file(extensions: ["json"]))
    var scenario: String

    @Flag(help: "Print one JSON document instead of the readable timeline.")
    var json = false

    func run() throws {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: scenario))
        } catch {
            throw ValidationError("cannot read scenario \(scenario): \(error.localizedDescription)")
        }
        let defaults = SchedulerSettings(maxConcurrentRuns: max(1, ProcessInfo.processInfo.activeProcessorCount))
        let parsed: Scenario
        let report: SimulationReport
        do {
            // A key given twice, which JSONSerialization reads keeping one value: I-JSON, as every input.
            if let duplicate = JSONDuplicateKey.first(in: Array(data)) {
                let key = JSONValue.string(duplicate.key).jsonText()
                throw ScenarioError(path: duplicate.path, message: "has the key \(key) more than once")
            }
            parsed = try ScenarioDecoder.decode(data, defaults: defaults)
            report = try Simulation.run(parsed)
        } catch let error as ScenarioError {
            FileHandle.standardError.write(Data("widget-scheduler: \(scenario): \(error)\n".utf8))
            throw ExitCode(65)
        }
        print(json ? report.jsonText() : SimulationTranscript.render(report, of: parsed), terminator: json ? "\n" : "")
    }
}
