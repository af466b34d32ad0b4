import Foundation
import Testing
import WidgetProtocol
@testable import WidgetHost

/// A failed run in words, beside the entry the widget keeps: what went wrong, and what the scheduler does next.
struct RunFailureTextTests {
    static let utc = TimeZone(identifier: "UTC")!
    static let now = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15 08:00:00 UTC

    static func widget(outcome: String?, state: String = "idle", nextReload: Date? = nil) -> WidgetSummary {
        WidgetSummary(id: "w1", kind: "k", family: "systemSmall", configuration: [:], state: state,
                      lastOutcome: outcome, nextReload: nextReload, tokens: 1)
    }

    static func text(_ widget: WidgetSummary, detail: String? = nil) -> String? {
        RunFailureText.describe(widget, detail: detail, timeZone: utc, now: now)
    }

    @Test(arguments: [nil, "success", "running"])
    func aWidgetWhoseLastRunDidNotFailShowsNothing(outcome: String?) {
        #expect(Self.text(Self.widget(outcome: outcome), detail: "exited with status 2") == nil)
    }

    @Test(arguments: [
        ("exit", "exited with status 2", "Not updated: its provider exited with status 2."),
        ("timeout", "still running after 10 s, terminated",
         "Not updated: its provider took too long and was stopped (still running after 10 s, terminated)."),
        ("signal", "killed by SIGSEGV", "Not updated: its provider was killed by a signal (killed by SIGSEGV)."),
        ("invalid", "entry 3: no date.", "Not updated: its provider's answer was not valid (entry 3: no date)."),
        ("interrupted", "the daemon stopped",
         "Not updated: the scheduler stopped while it was updating (the daemon stopped)."),
    ])
    func theDaemonsDetailSaysWhatWentWrong(outcome: String, detail: String, expected: String) {
        #expect(Self.text(Self.widget(outcome: outcome), detail: detail) == expected)
    }

    @Test func withoutTheDetailTheOutcomeIsSaidInWords() {
        #expect(Self.text(Self.widget(outcome: "memory")) == "Not updated: its provider ran out of memory.")
        #expect(Self.text(Self.widget(outcome: "output-too-large"))
            == "Not updated: its provider's answer was too large.")
        #expect(Self.text(Self.widget(outcome: "something-new"))
            == "Not updated: its last run ended with \"something-new\".")
    }

    @Test func aBackoffSaysWhenTheNextTryIsAndQuarantineHowToTryAgain() {
        let retry = Self.now.addingTimeInterval(95)
        let failing = Self.widget(outcome: "exit", state: "backoff", nextReload: retry)
        #expect(Self.text(failing, detail: "exited with status 1")
            == "Not updated: its provider exited with status 1. Trying again at 08:01:35.")
        let stopped = Self.text(Self.widget(outcome: "spawn", state: "quarantined"))
        #expect(stopped == "Not updated: its provider could not be started. "
            + "It failed too often and stopped updating: Reload on its back side tries again.")
    }

    @Test func aLongDetailIsOneLineAndCut() {
        let detail = "first line\nsecond line " + String(repeating: "x", count: 500)
        let text = Self.text(Self.widget(outcome: "exit"), detail: detail) ?? ""
        #expect(!text.contains("\n"))
        #expect(text.contains("first line second line"))
        #expect(text.count < 300)
        #expect(text.hasSuffix("…."))
    }
}
