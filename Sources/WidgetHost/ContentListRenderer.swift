import Foundation
import WidgetProtocol

/// Draws a kind that declares no view: its display name over the entry's top-level values as plain lines, every
/// value escaped. Before the first timeline it draws the same shape with grey bars (the placeholder form). A
/// top-level `url` string that opens something (`HTML.isTappable`) is the widget's URL, as `widgetURL` would be.
public struct ContentListRenderer: WidgetRendering {
    /// How many lines each family has room for.
    static func lines(for family: String) -> Int {
        switch family {
        case "accessoryInline": return 1
        case "accessoryCircular": return 1
        case "accessoryRectangular": return 2
        case "systemSmall": return 4
        case "systemMedium": return 4
        default: return 10
        }
    }

    public init() {}

    public func render(kind: KindsMethod.Kind?, family: String, date: Date?, content: JSONValue?) -> RenderedFace {
        let title = kind?.displayName ?? kind?.kind ?? "Widget"
        let room = Self.lines(for: family)
        var html = "<div class=\"content-list\">"
        if !family.hasPrefix("accessory") {
            html += "<p class=\"title\">\(HTML.escape(title))</p>"
        }
        guard let content else {
            // Bars of varied widths (classes, since the page's policy allows no inline style).
            for line in 0..<room {
                html += "<p class=\"redacted bar\(line % 4)\" aria-hidden=\"true\"></p>"
            }
            return RenderedFace(html: html + "</div>")
        }
        for (name, value) in Self.lines(of: content).filter({ $0.0 != "url" }).prefix(room) {
            html += "<p><span class=\"name\">\(HTML.escape(name))</span> "
                + "<span class=\"value\">\(HTML.escape(value))</span></p>"
        }
        var urls: [String] = []
        if case .object(let members) = content, case .string(let url)? = members["url"], HTML.isTappable(url) {
            urls.append(url)
        }
        return RenderedFace(html: html + "</div>", urls: urls)
    }

    /// The content's scalar members, by name, as text.
    static func lines(of content: JSONValue) -> [(String, String)] {
        guard case .object(let members) = content else { return [("", text(content))] }
        return members.keys.sorted().compactMap { name in
            guard let value = members[name] else { return nil }
            switch value {
            case .object, .array: return nil
            default: return (name, text(value))
            }
        }
    }

    static func text(_ value: JSONValue) -> String {
        switch value {
        case .string(let string): return string
        case .null: return "—"
        default: return value.jsonText()
        }
    }
}
