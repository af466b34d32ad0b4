import Foundation
import Testing
import WidgetSchedulerTestKit

/// `widget-scheduler simulate` reads its scenario as every other input is read: I-JSON, numbers in range, each
/// refusal naming the field (exit 65, the data was bad).
@Suite("widget-scheduler simulate refuses bad scenarios")
struct SimulateCommandTests {
    static let responses = #""responses": {"w": [{"entries": [0], "policy": "atEnd"}]}"#
    static let widgets = #""widgets": [{"id": "w1", "kind": "w"}]"#

    @Test("each bad scenario is refused naming the field", arguments: [
        (#"{"start": "2026-01-05T08:00:00Z", "duration": 60, "duration": 1e300, \#(widgets), \#(responses)}"#,
         #"has the key "duration" more than once"#),
        (#"{"start": "2026-01-05T08:00:00Z", "duration": 60, \#(widgets), "#
            + #""responses": {"w": [{"entries": [0], "policy": "atEnd", "policy": "never"}]}}"#,
         #"responses.w[0]: has the key "policy" more than once"#),
        (#"{"start": "2026-01-05T08:00:00Z", "duration": 1e300, \#(widgets), \#(responses)}"#,
         "duration: must be a number of seconds from 0 to 253402300799.999, found 1e+300"),
    ])
    func badScenarioIsRefused(_ scenario: String, _ message: String) throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("simulate-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("scenario.json").path
        try scenario.write(toFile: file, atomically: true, encoding: .utf8)
        let result = try RunningCommand([try BuiltProducts.executable("widget-scheduler"), "simulate", file],
                                        environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"], scratch: directory)
            .wait()
        #expect(result.status == 65, "\(result)")
        #expect(result.standardError == "widget-scheduler: \(file): \(message)\n", "\(result)")
    }
}
