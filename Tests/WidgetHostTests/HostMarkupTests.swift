import Foundation
import Testing
import WidgetProtocol
@testable import WidgetHost

/// What reaches a page from providers and the daemon is text: markup in it comes out escaped.
struct HostMarkupTests {
    static let hostile = "<script>alert(1)</script><img src=x onerror=alert(2)>\"'&"

    @Test func escapingLeavesNoMarkupCharacter() {
        let escaped = HTML.escape(Self.hostile)
        #expect(!escaped.contains("<") && !escaped.contains(">") && !escaped.contains("\"") && !escaped.contains("'"))
        #expect(escaped.hasPrefix("&lt;script&gt;"))
    }

    @Test func aProvidersContentIsDrawnAsText() {
        let face = ContentListRenderer().render(
            kind: nil, family: "systemSmall", date: Date(), content: .object(["title": .string(Self.hostile)]))
        #expect(!face.html.contains("<script"))
        #expect(!face.html.contains("<img"))
        #expect(face.html.contains(HTML.escape(Self.hostile)))
    }

    @Test func beforeTheFirstTimelineTheFaceIsRedactedBars() {
        let face = ContentListRenderer().render(kind: nil, family: "systemSmall", date: nil, content: nil)
        #expect(face.html.components(separatedBy: "class=\"redacted").count - 1 == 4)
        #expect(!face.html.contains("style="), "the page's policy allows no inline style")
    }

    @Test func aCardEscapesTheKindsNameTheOutcomeAndTheWidgetsURL() {
        let kind = KindsMethod.Kind(kind: "k", displayName: Self.hostile, families: ["systemSmall"], parameters: [],
                                    widgets: 1, manifest: "/m.toml")
        let widget = WidgetSummary(id: "w1", kind: "k", family: "systemSmall", configuration: [:], state: "idle",
                                   lastOutcome: Self.hostile, tokens: 1)
        let html = HomeMarkup.card(widget, kind: kind, shown: true, position: 0, count: 1, pinned: false,
                                   stackTargets: [("s2", Self.hostile)], renderer: ContentListRenderer())
        #expect(!html.contains("<script"))
        #expect(!html.contains("<img"))
    }

    @Test func theConfigurationFormEscapesTitlesValuesAndOptions() {
        let kind = KindsMethod.Kind(
            kind: "k", families: ["systemSmall"],
            parameters: [KindsMethod.Parameter(name: "city", type: "string", title: Self.hostile,
                                               defaultValue: .string(Self.hostile), dynamicOptions: true),
                         KindsMethod.Parameter(name: "units", type: "enum")],
            widgets: 1, manifest: "/m.toml")
        let widget = WidgetSummary(id: "w1", kind: "k", family: "systemSmall",
                                   configuration: ["city": .string(Self.hostile)], state: "idle", tokens: 1)
        let html = PanelMarkup.configureForm(widget: widget, kind: kind, fixedOptions: [
            "units": [OptionsMethod.Option(value: .string(Self.hostile), title: Self.hostile)]])
        #expect(!html.contains("<script"))
        #expect(!html.contains("<img"))
        let options = PanelMarkup.options([OptionsMethod.Option(value: .string(Self.hostile))])
        #expect(!options.contains("<script"))
    }

    @Test func tapsOpenOnlyAddressesThatOpenSomething() {
        #expect(HTML.isTappable("https://example.com/a?b=c"))
        #expect(HTML.isTappable("weather-app://city/paris"))
        #expect(!HTML.isTappable("javascript:alert(1)"))
        #expect(!HTML.isTappable("JavaScript:alert(1)"))
        #expect(!HTML.isTappable("data:text/html,<script>"))
        #expect(!HTML.isTappable("file:///etc/passwd"))
        #expect(!HTML.isTappable("/relative/path"))
        #expect(!HTML.isTappable("https://example.com/\nsecond-line"))
    }

    @Test func anEventIsOneDataLineWhateverItsHTMLHolds() {
        let frame = ServerSentEvent.encode(event: "slot", ["html": "<p>a\nb\r\nc</p>"])
        let lines = frame.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 4)
        #expect(lines[0] == "event: slot")
        #expect(lines[1].hasPrefix("data: {"))
        #expect(frame.hasSuffix("\n\n"))
    }

    @Test(arguments: [
        (ReloadDecision(widget: "w1", decision: .ran, at: Date(timeIntervalSince1970: 0)), "Ran at "),
        (ReloadDecision(widget: "w1", decision: .coalesced, at: Date(timeIntervalSince1970: 0)),
         "Joined the run already planned for "),
        (ReloadDecision(widget: "w1", decision: .deferred, at: Date(timeIntervalSince1970: 0), because: .floor),
         "Deferred until "),
    ])
    func decisionsAreSaidInWords(decision: ReloadDecision, start: String) {
        let text = DecisionText.describe(decision, timeZone: TimeZone(identifier: "UTC")!)
        #expect(text.hasPrefix(start))
        if decision.decision == .deferred { #expect(text.contains("because of the minimum interval")) }
    }
}
