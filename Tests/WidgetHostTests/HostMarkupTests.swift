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

    static let tickerViews: JSONValue = .object([
        "version": .integer(1),
        "families": .object([
            "systemSmall": .object([
                "url": .string("https://example.com/{label}"),
                "body": .object(["type": .string("vstack"), "children": .array([
                    .object(["type": .string("text"), "value": .string("label")]),
                    .object(["type": .string("date"), "value": .string("until"), "style": .string("timer")]),
                ])]),
            ]),
            "systemMedium": .object([
                "body": .object(["type": .string("hstack"), "children": .array([
                    .object(["type": .string("text"), "value": .string("label")]),
                    .object(["type": .string("link"), "url": .string("weather-app://city/{label}"),
                             "content": .object(["type": .string("text"), "text": .string("Open")])]),
                ])]),
            ]),
        ]),
    ])

    static let faces = WidgetFaces(views: [ViewsMethod.KindViews(kind: "ticker", views: tickerViews)],
                                   timeZone: TimeZone(identifier: "UTC")!)

    @Test func aProvidersContentIsDrawnAsTextByItsView() {
        let face = Self.faces.face(kind: "ticker", family: "systemSmall", date: Date(),
                                   content: .object(["label": .string(Self.hostile)]), now: Date())
        #expect(!face.html.contains("<script"))
        #expect(!face.html.contains("<img"))
        #expect(face.html.contains(HTML.escape(Self.hostile)))
        #expect(!face.html.contains("style="), "the page's policy allows no inline style")
    }

    @Test func theFaceCarriesTheViewsTimerTextForThePageToTick() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let face = Self.faces.face(kind: "ticker", family: "systemSmall", date: now,
                                   content: .object(["label": .string("a"), "until": .string("2027-01-15T08:05:00Z")]),
                                   now: now)
        #expect(face.html.contains("<time "))
        #expect(face.html.contains("data-style=\"timer\""))
        #expect(face.html.contains("datetime=\"2027-01-15T08:05:00Z\""))
        #expect(face.problems.isEmpty)
    }

    @Test func aMissingFieldIsAProblemOfTheEntryNotACrash() {
        let face = Self.faces.face(kind: "ticker", family: "systemSmall", date: Date(),
                                   content: .object(["other": .integer(1)]), now: Date())
        #expect(face.problems.map(\.path).contains("label"))
        #expect(face.urls.isEmpty, "a URL whose field is missing opens nothing")
    }

    @Test func theTapURLsAreTheWidgetURLThenItsLinks() {
        let small = Self.faces.face(kind: "ticker", family: "systemSmall", date: Date(),
                                    content: .object(["label": .string("paris")]), now: Date())
        #expect(small.urls == ["https://example.com/paris"])
        let medium = Self.faces.face(kind: "ticker", family: "systemMedium", date: Date(),
                                     content: .object(["label": .string("paris")]), now: Date())
        #expect(medium.urls == ["weather-app://city/paris"])
    }

    @Test func beforeTheFirstTimelineTheFaceIsThePlaceholderForm() {
        let face = Self.faces.face(kind: "ticker", family: "systemSmall", date: nil, content: nil, now: Date())
        #expect(face.html.contains("wv-placeholder"))
        #expect(!face.html.contains("<time "), "a placeholder does not tick")
    }

    @Test func aKindWithoutViewsShowsItsFieldsAndAnAssetFolderGivesImagesAURL() {
        let plain = WidgetFaces().face(kind: "other", family: "systemSmall", date: Date(),
                                       content: .object(["city": .string("Lyon")]), now: Date())
        #expect(plain.html.contains("Lyon"))
        let withAssets = WidgetFaces(views: [ViewsMethod.KindViews(kind: "weather kind", views: .object([
            "version": .integer(1),
            "families": .object(["systemSmall": .object(["body": .object([
                "type": .string("image"), "asset": .string("icons/sun.png")])])]),
        ]), assets: "/srv/assets")])
        #expect(withAssets.assetFolders == ["weather kind": "/srv/assets"])
        let face = withAssets.face(kind: "weather kind", family: "systemSmall", date: Date(), content: .object([:]),
                                   now: Date())
        #expect(face.html.contains("src=\"/kind-assets/weather%20kind/icons/sun.png\""))
    }

    @Test func unreadableViewsAreToldAndTheKindIsDrawnPlainly() {
        let faces = WidgetFaces(views: [ViewsMethod.KindViews(kind: "k", views: .object(["version": .integer(99)]))])
        #expect(faces.unreadable["k"] != nil)
        let face = faces.face(kind: "k", family: "systemSmall", date: Date(), content: .object(["a": .string("b")]),
                              now: Date())
        #expect(face.html.contains(">b<"))
    }

    @Test func aCardEscapesTheKindsNameTheOutcomeAndTheWidgetsURL() {
        let kind = KindsMethod.Kind(kind: "k", displayName: Self.hostile, families: ["systemSmall"], parameters: [],
                                    widgets: 1, manifest: "/m.toml")
        let widget = WidgetSummary(id: "w1", kind: "k", family: "systemSmall", configuration: [:], state: "idle",
                                   lastOutcome: Self.hostile, tokens: 1)
        let face = RenderedFace(html: "", urls: ["https://example.com/\"><script>"])
        let html = HomeMarkup.card(widget, face: face, kind: kind, shown: true, position: 0, count: 1, pinned: false,
                                   failure: RunFailureText.describe(widget, detail: Self.hostile))
        #expect(html.contains("class=\"run-error\""))
        #expect(!html.contains("<script"))
        #expect(!html.contains("<img"))
    }

    @Test func aPinnedStackSaysSoBesideItsControlsNotOverTheCard() throws {
        let widgets = ["w1", "w2"].map {
            WidgetSummary(id: $0, kind: "k", family: "systemSmall", configuration: [:], state: "idle", tokens: 1)
        }
        let model = HomeMarkup.SlotModel(slot: HomeLayout.Slot(id: "s1", widgets: ["w1", "w2"], pinned: "w2"),
                                         order: ["w2", "w1"],
                                         widgets: Dictionary(uniqueKeysWithValues: widgets.map { ($0.id, $0) }),
                                         kinds: [:])
        let faces = ["w1": RenderedFace(html: "one"), "w2": RenderedFace(html: "two")]
        let html = HomeMarkup.slot(model, faces: faces)
        let navigation = try #require(html.range(of: "<div class=\"stack-nav\">"))
        let mark = try #require(html.range(of: "class=\"pin-mark\""))
        #expect(mark.lowerBound > navigation.lowerBound, "in the stack's controls")
        #expect(html.components(separatedBy: "pin-mark").count == 2, "once, on no card")
        var unpinned = model
        unpinned.slot.pinned = nil
        #expect(!HomeMarkup.slot(unpinned, faces: faces).contains("pin-mark"))
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

    @Test func aPreviewWithoutASnapshotIsThePlaceholderFaceAndTheEscapedReason() {
        let placeholder = RenderedFace(html: "<div class=\"wv-redacted\"></div>", urls: [])
        let html = PanelMarkup.previewFailed(Self.hostile, placeholder: placeholder)
        #expect(html.hasPrefix("<article class=\"widget shown placeholder\"><div class=\"face\">"
            + "<div class=\"wv-redacted\">"))
        #expect(html.contains("<p class=\"preview-error\">"))
        #expect(!html.contains("<script"))
        #expect(!html.contains("<img"))
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

    @Test func aPreviewRefusedForTheRateIsAskedAgainWhenTheDaemonSaysAndOtherErrorsAreShown() {
        let limited = ControlError.rateLimited(method: "io.widgetscheduler.Scheduler.Snapshot", uid: 1000,
                                               perMinute: 30, retryAfter: 2.34)
        #expect(HomeScreen.retryAfter(.remote(limited)) == 2.4)
        let late = ControlError.rateLimited(method: "m", uid: 1000, perMinute: 1, retryAfter: 3600)
        #expect(HomeScreen.retryAfter(.remote(late)) == 60)
        #expect(HomeScreen.retryAfter(.remote(.unknownKind("k"))) == nil)
        #expect(HomeScreen.retryAfter(.timedOut(seconds: 60)) == nil)
    }
}
