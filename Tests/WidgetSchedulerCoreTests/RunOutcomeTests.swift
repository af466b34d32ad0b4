import Testing
import WidgetSchedulerCore

@Suite struct RunOutcomeTests {
    @Test("an outcome is named success, or by its failure's reason", arguments: [
        (RunOutcome.success(Timeline(entries: [], policy: .never)), "success"),
        (.failure(reason: "timeout", detail: "killed after 30 s"), "timeout"),
        (.failure(reason: "invalid", detail: "the provider did not answer with a timeline"), "invalid"),
    ])
    func outcomeName(_ outcome: RunOutcome, _ name: String) {
        #expect(outcome.name == name)
    }
}
