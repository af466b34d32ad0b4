import Foundation
import Testing
import WidgetProtocol
import WidgetSchedulerTestKit

/// Numbers out of the supported range in a provider's answer, through the real daemon: the run fails as `invalid`
/// naming the field, nothing of the answer is kept, and every query a local user may make still gets its reply.
@Suite("Out-of-range numbers in provider answers")
struct OutOfRangeAnswerTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var answer: String
        /// What the run's failure detail must name.
        var field: String

        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "a relevance duration of 1e17 s",
             answer: #"{"entries":[{"date":"2026-01-01T00:00:00Z","content":1,"#
                + #""relevance":{"score":1,"duration":1e17}}],"policy":"never"}"#,
             field: "relevance.duration"),
        Case(name: "a relevance score of 1e300",
             answer: #"{"entries":[{"date":"2026-01-01T00:00:00Z","content":1,"relevance":{"score":1e300}}],"#
                + #""policy":"never"}"#,
             field: "relevance.score"),
        Case(name: "an entry dated in year 1",
             answer: #"{"entries":[{"date":"0001-01-01T00:00:00Z","content":1}],"policy":"never"}"#,
             field: "date"),
        Case(name: "an after date past year 9999",
             answer: #"{"entries":[{"date":"2026-01-01T00:00:00Z","content":1}],"#
                + #""policy":{"after":"9999-12-31T23:59:59-01:00"}}"#,
             field: "after"),
    ]

    @Test("the run fails as invalid naming the field; stack, timeline, list, budget and status still answer",
          arguments: cases)
    func outOfRangeAnswerIsRefused(_ bad: Case) throws {
        let world = try DaemonWorld()
        try world.write("#!/bin/sh\ncat > /dev/null\necho '\(bad.answer)'\n", to: "bad.sh", executable: true)
        try world.write("exec = \"./bad.sh\"\ntimeout = 10\n\n[[widget]]\nkind = \"bad\"\n", to: "bad.toml")
        try world.start()
        let id = try world.add("bad")
        let widget = try world.waitUntilIdle(id)
        #expect(widget.lastOutcome == "invalid")
        #expect(widget.currentEntry == nil)
        let detail = try eventually("the run's failure line") {
            world.daemonLog.split(separator: "\n").first { $0.contains("\(id):") && $0.contains("failed (invalid)") }
        }
        #expect(detail.contains("entry 0") || bad.field == "after", "\(detail)")
        #expect(detail.contains(bad.field), "\(detail)")
        for arguments in [["stack"], ["stack", "--json"], ["timeline", id], ["timeline", id, "--json"], ["list"],
                          ["budget", id], ["status"]] {
            let result = try world.startWidgetctl(arguments, as: .nobody).wait()
            #expect(result.status == 0, "widgetctl \(arguments.joined(separator: " ")): \(result)")
        }
        #expect(world.waitForDaemonExit(timeout: 0) == nil, "the daemon ended:\n\(world.daemonLog)")
    }
}
