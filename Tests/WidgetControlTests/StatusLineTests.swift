import Foundation
import Testing
import WidgetControl
import WidgetProtocol
import WidgetSchedulerCore
import WidgetViews

private let now = RFC3339.date(from: "2026-11-26T10:00:00Z") ?? Date(timeIntervalSince1970: 0)

private func json(_ text: String) -> JSONValue {
    JSONValue(jsonText: text) ?? .null
}

private let views = json(#"""
    {"version": 1, "families": {
      "systemSmall": {"background": "orange", "body": {"type": "vstack", "children": [
        {"type": "text", "value": "title", "font": "headline"},
        {"type": "date", "value": "target", "style": "timer"},
        {"type": "gauge", "value": "done", "label": "done"}
      ]}},
      "accessoryInline": {"body": {"type": "hstack", "children": [
        {"type": "image", "symbol": "timer"},
        {"type": "text", "value": "title"},
        {"type": "date", "value": "target", "style": "relative"},
        {"type": "progress", "value": "done", "format": "percent"}
      ]}}
    }}
    """#)

private let content = json(#"""
    {"title": "Tea <& biscuits>", "target": "2026-11-26T10:04:30Z", "done": 0.25}
    """#)

private func display(family: String? = nil, content: JSONValue = content) throws -> WidgetDisplay {
    let timeline = TimelineMethod.Reply(
        widget: "w3", kind: "countdown", family: "systemSmall", policy: nil,
        entries: [.init(date: now, content: content, current: true)])
    return try WidgetDisplay(timeline: timeline, views: .init(kind: "countdown", views: views), family: family,
                             timeZone: TimeZone(secondsFromGMT: 0) ?? .current)
}

private func object(_ line: String) throws -> [String: JSONValue] {
    #expect(!line.contains("\n"), "one line")
    return try #require(JSONValue(jsonText: line)?.objectValue, "a JSON object: \(line)")
}

/// Each status bar protocol, checked against the fields its documentation names (waybar-custom(5) "RETURN-TYPE";
/// i3blocks(1) "format" and "interval=persist").
@Suite struct StatusLineTests {
    @Test func waybarWritesTextTooltipClassPercentageAndAlt() throws {
        let line = try display().statusLine(.waybar, now: now, familyRequested: false)
        let fields = try object(line.line)
        #expect(Set(fields.keys).isSubset(of: ["text", "alt", "tooltip", "class", "percentage"]))
        #expect(fields["text"] == .string("◴ Tea &lt;&amp; biscuits&gt; in 5 min 25%"))
        #expect(fields["alt"] == .string("timer"))
        #expect(fields["class"] == .array([.string("countdown")]))
        #expect(fields["percentage"] == .integer(25))
        // The widget's own family, drawn without its box, blank rows or shared margin.
        let tooltip = try #require(fields["tooltip"]?.stringValue).split(separator: "\n")
        #expect(tooltip.map { $0.drop { $0 == " " } } == ["Tea &lt;&amp; biscuits&gt;", "4:30", "◔ 0.25", "done"])
        #expect(tooltip.first?.first != " ")
    }

    @Test func waybarMarksAPlaceholderAndAnIncompleteEntryInItsClass() throws {
        var placeholder = try display()
        placeholder.placeholder = true
        let placeholderFields = try object(placeholder.statusLine(.waybar, now: now, familyRequested: false).line)
        #expect(placeholderFields["class"] == .array([.string("countdown"), .string("placeholder")]))
        #expect(placeholderFields["percentage"] == nil)
        let incomplete = try object(try display(content: json(#"{"done": 1}"#))
            .statusLine(.waybar, now: now, familyRequested: false).line)
        #expect(incomplete["class"] == .array([.string("countdown"), .string("incomplete")]))
        #expect(incomplete["percentage"] == .integer(100))
    }

    @Test func i3blocksWritesFullTextShortTextAndColor() throws {
        let fields = try object(try display(family: "systemSmall")
            .statusLine(.i3blocks, now: now, familyRequested: true).line)
        #expect(Set(fields.keys) == ["full_text", "short_text", "color"])
        #expect(fields["full_text"] == .string("Tea <& biscuits> · 4:30 · done 0.25"))
        #expect(fields["short_text"] == .string("Tea <& biscuits>"))
        let color = try #require(fields["color"]?.stringValue)
        #expect(color.count == 7 && color.hasPrefix("#") && color.dropFirst().allSatisfy(\.isHexDigit))
        let inline = try object(try display().statusLine(.i3blocks, now: now, familyRequested: false).line)
        #expect(inline["color"] == nil, "no background, no color: the bar's own")
    }

    @Test func textIsThePlainLine() throws {
        let line = try display().statusLine(.text, now: now, familyRequested: false)
        #expect(line.line == "◴ Tea <& biscuits> in 5 min 25%")
    }

    @Test func theLinesPaceIsItsOwnTextsNotTheTooltips() throws {
        // The inline line shows "in 5 min"; the tooltip's timer changes each second, the line at 10:00:30.
        let line = try display().statusLine(.waybar, now: now, familyRequested: false)
        #expect(line.widget.nextChange == now.addingTimeInterval(30))
        // Without date texts nothing is due: the client sleeps until the entry changes.
        let still = try display(content: json(#"{"title": "x", "done": 0.5}"#))
        #expect(still.statusLine(.text, now: now, familyRequested: true).widget.nextChange == nil)
    }

    @Test func aFamilyTheViewsLackIsRefusedNamingThoseThereAre() {
        #expect(throws: WidgetDisplay.Problem.self) { try display(family: "systemLarge") }
        do {
            _ = try display(family: "systemLarge")
        } catch {
            #expect("\(error)" == "kind countdown has no view for systemLarge (it has: systemSmall, "
                + "accessoryInline)")
        }
    }

    @Test func aKindWithoutViewsShowsItsFieldsWithTheFallbackView() throws {
        let timeline = TimelineMethod.Reply(
            widget: "w1", kind: "plain", family: "systemSmall", policy: nil,
            entries: [.init(date: now, content: json(#"{"b": 2, "a": "one", "nested": {"x": 1}}"#), current: true)])
        let display = try WidgetDisplay(timeline: timeline, views: nil, family: nil)
        #expect(display.statusLine(.text, now: now, familyRequested: false).line == "a one · b 2")
    }

    @Test func pangoEscapesEveryMarkupCharacter() {
        #expect(StatusLine.pango(#"<b>&"it's"</b>"#) == "&lt;b&gt;&amp;&quot;it&#39;s&quot;&lt;/b&gt;")
    }
}
