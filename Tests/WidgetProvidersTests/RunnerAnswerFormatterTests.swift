import Foundation
import Testing
import WidgetProtocol
import WidgetProviders
import WidgetSchedulerCore

@Suite("Answer formatter (run-provider output)")
struct RunnerAnswerFormatterTests {
    private static let timeline = Timeline(
        entries: [
            TimelineEntry(
                date: Date(timeIntervalSince1970: 1_767_600_000),
                relevance: TimelineEntryRelevance(score: 10, duration: 3600), content: #"{"t":"8"}"#
            ),
            TimelineEntry(date: Date(timeIntervalSince1970: 1_767_603_600), content: "\"nine\""),
        ],
        policy: .after(Date(timeIntervalSince1970: 1_767_607_200))
    )

    @Test func jsonIsTheProtocolsShapeAndDecodesBackToTheSameAnswer() throws {
        let text = ProviderAnswerFormatter.json(.timeline(Self.timeline))
        let decoded = ProviderAnswerDecoder.timeline(from: Array(text.utf8))
        #expect(decoded == .success(Self.timeline))
    }

    @Test func textHasOneLinePerEntryWithDateRelevanceAndContent() {
        let text = ProviderAnswerFormatter.text(.timeline(Self.timeline))
        #expect(text == """
            timeline: 2 entries, policy after 2026-01-05T10:00:00Z
              2026-01-05T08:00:00Z  relevance 10 for 3600 s  {"t":"8"}
              2026-01-05T09:00:00Z  "nine"

            """)
    }

    @Test func textListsOptionsAndConfigurations() {
        let options = ProviderAnswerFormatter.text(.options([
            ParameterOption(value: .string("paris"), title: "Paris", subtitle: "France"),
            ParameterOption(value: .integer(3), title: "Three"),
        ]))
        #expect(options == "options: 2\n  \"paris\"  Paris (France)\n  3  Three\n")
        let configuration = ProviderAnswerFormatter.text(.configuration(["b": .bool(true), "a": .string("x")]))
        #expect(configuration == "configuration:\n  a = \"x\"\n  b = true\n")
    }
}
