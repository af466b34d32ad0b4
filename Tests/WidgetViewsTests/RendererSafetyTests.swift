import Foundation
import Testing
import WidgetProtocol
@testable import WidgetViews

/// Content that tries to escape: markup, script, attribute breaks, terminal escapes, bidirectional overrides.
private let hostile = Fixtures.json(#"""
    {"city": "<script>alert(1)</script>", "temperature": "\" onmouseover=\"alert(1)",
     "condition": "<img src=x onerror=alert(1)>", "note": "\u001b]0;owned\u0007\u001b[2J\u202eevil\nline",
     "alert": "' style='x", "departure": "2026-11-26T10:04:30Z", "humidity": 0.5, "zone": "UTC\"><b>"}
    """#)

@Suite struct RendererSafetyTests {
    @Test(arguments: WidgetFamily.allCases)
    func htmlEscapesEveryTextAndHasNoScriptHandlerOrInlineStyle(family: WidgetFamily) throws {
        let view = try #require(try Fixtures.parsedDocument().view(for: family))
        for placeholder in [false, true] {
            let (html, _) = HTMLRenderer.render(view, family: family, content: hostile,
                                                context: Fixtures.context(placeholder: placeholder))
            let tags = try #require(Self.tags(html), "not well-formed: \(html)")
            #expect(Set(tags.map(\.name)).isSubset(of: Self.allowedElements))
            for tag in tags {
                for name in tag.attributes {
                    #expect(!name.hasPrefix("on") && name != "style" && name != "srcdoc", "attribute \(name)")
                }
            }
            #expect(!html.lowercased().contains("javascript:"))
        }
    }

    private static let allowedElements: Set<String> = [
        "div", "span", "a", "time", "svg", "circle", "progress", "img",
    ]

    /// The tags of `html` with their attribute names, read as a browser would: every attribute value is double-quoted
    /// and holds no raw quote, and text holds no raw `<`. Nil when that is not so.
    static func tags(_ html: String) -> [(name: String, attributes: [String])]? {
        var tags: [(String, [String])] = []
        var index = html.startIndex
        while let open = html[index...].firstIndex(of: "<") {
            var cursor = html.index(after: open)
            if html[cursor] == "/" {
                guard let close = html[cursor...].firstIndex(of: ">") else { return nil }
                index = html.index(after: close)
                continue
            }
            var name = ""
            while cursor < html.endIndex, html[cursor].isLetter { name.append(html[cursor]); cursor = html.index(after: cursor) }
            var attributes: [String] = []
            while cursor < html.endIndex {
                while html[cursor] == " " { cursor = html.index(after: cursor) }
                if html[cursor] == ">" { break }
                if html[cursor] == "/" { cursor = html.index(after: cursor); continue }
                var attribute = ""
                while html[cursor] != "=" && html[cursor] != " " && html[cursor] != ">" && html[cursor] != "/" {
                    attribute.append(html[cursor])
                    cursor = html.index(after: cursor)
                }
                attributes.append(attribute.lowercased())
                if html[cursor] == "=" {
                    cursor = html.index(after: cursor)
                    guard html[cursor] == "\"" else { return nil }
                    cursor = html.index(after: cursor)
                    guard let end = html[cursor...].firstIndex(of: "\"") else { return nil }
                    if html[cursor..<end].contains("<") || html[cursor..<end].contains(">") { return nil }
                    cursor = html.index(after: end)
                }
            }
            tags.append((name.lowercased(), attributes))
            index = cursor
        }
        return tags
    }

    @Test(arguments: WidgetFamily.allCases)
    func textSendsNoEscapeSequenceFromContent(family: WidgetFamily) throws {
        let view = try #require(try Fixtures.parsedDocument().view(for: family))
        let widget = Resolver.resolve(view, family: family, content: hostile, context: Fixtures.context())
        for line in TextRenderer.render(widget, options: .init(color: false)) + [InlineRenderer.line(widget)] {
            #expect(!line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0.value == 0x202E })
        }
    }

    @Test(arguments: WidgetFamily.allCases.filter { !$0.isInline })
    func everyBoxLineHasTheFamilysWidth(family: WidgetFamily) throws {
        let view = try #require(try Fixtures.parsedDocument().view(for: family))
        for content in [Fixtures.content, hostile] {
            let widget = Resolver.resolve(view, family: family, content: content, context: Fixtures.context())
            let lines = TextRenderer.render(widget, options: .init(title: "a long title that does not fit in"))
            #expect(lines.count == family.textGrid.rows + 2)
            #expect(lines.allSatisfy { DisplayWidth.of($0) == family.textGrid.columns + 2 })
        }
    }

    @Test func colorIsWrittenOnlyWhenTheHostAsks() throws {
        let view = try #require(try Fixtures.parsedDocument().view(for: .systemMedium))
        let widget = Resolver.resolve(view, family: .systemMedium, content: Fixtures.content,
                                      context: Fixtures.context())
        #expect(!TextRenderer.render(widget, options: .init(color: false)).joined().contains("\u{1B}"))
        #expect(TextRenderer.render(widget, options: .init(color: true)).joined().contains("\u{1B}["))
        #expect(!InlineRenderer.line(widget, color: false).contains("\u{1B}"))
    }

    @Test func wideCharactersStayInsideTheBox() throws {
        let view = try Fixtures.single(#"{"type": "text", "value": "t"}"#, family: "systemSmall")
        let widget = Resolver.resolve(view, family: .systemSmall,
                                      content: Fixtures.json(#"{"t": "小组件开发 widget 北京天气晴 🌧🌧 ok"}"#),
                                      context: Fixtures.context())
        let lines = TextRenderer.render(widget)
        #expect(lines.allSatisfy { DisplayWidth.of($0) == WidgetFamily.systemSmall.textGrid.columns + 2 })
        #expect(lines.joined().contains("小组件开发"))
    }

    @Test func theInlineLineIsOneLine() throws {
        let view = try #require(try Fixtures.parsedDocument().view(for: .systemLarge))
        let widget = Resolver.resolve(view, family: .systemLarge, content: hostile, context: Fixtures.context())
        #expect(!InlineRenderer.line(widget).contains("\n"))
        #expect(DisplayWidth.of(InlineRenderer.line(widget, maxWidth: 20)) <= 20)
    }
}
