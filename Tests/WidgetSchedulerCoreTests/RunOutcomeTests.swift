import Testing
import WidgetSchedulerCore

@Suite struct RunOutcomeTests {
    @Test("an outcome is named success, or by its failure's reason", arguments: [
        (RunOutcome.success(Timeline(entries: [], policy: .never)), "success"),
        (.failure(reason: .timeout, detail: "killed after 30 s"), "timeout"),
        (.failure(reason: .invalid, detail: "the provider did not answer with a timeline"), "invalid"),
    ])
    func outcomeName(_ outcome: RunOutcome, _ name: String) {
        #expect(outcome.name == name)
    }

    @Test("an outcome's detail is its failure's, none for a success", arguments: [
        (RunOutcome.success(Timeline(entries: [], policy: .never)), nil),
        (.failure(reason: .timeout, detail: "killed after 30 s"), "killed after 30 s"),
        (.failure(reason: .invalid, detail: "the provider did not answer with a timeline"),
         "the provider did not answer with a timeline"),
    ] as [(RunOutcome, String?)])
    func outcomeDetail(_ outcome: RunOutcome, _ detail: String?) {
        #expect(outcome.detail == detail)
    }
}
