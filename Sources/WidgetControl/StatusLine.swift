import WidgetProtocol
import WidgetViews

/// A widget as one line of a status bar's own protocol, for `widgetctl watch --format`:
/// - `waybar`: Waybar's custom module with `"return-type": "json"`: `{"text", "alt", "tooltip", "class",
///   "percentage"}`, text and tooltip escaped for Pango markup (Waybar reads them as markup);
/// - `i3blocks`: i3blocks' persistent mode with `format=json`: `{"full_text", "short_text", "color"}` (in persistent
///   mode i3blocks' plain format reads only `full_text`, so the other keys need JSON);
/// - `text`: the plain line.
public enum StatusLine {
    /// A status bar protocol.
    public enum Format: String, Sendable, CaseIterable {
        case waybar, i3blocks, text
    }

    /// The line for `line` (the widget drawn for the bar), with `tooltip` (the widget drawn larger, for Waybar).
    public static func line(
        _ format: Format, line: ResolvedWidget, tooltip: ResolvedWidget?, kind: String
    ) -> String {
        switch format {
        case .text:
            return InlineRenderer.line(line)
        case .waybar:
            var object: [String: JSONValue] = ["text": .string(pango(InlineRenderer.line(line)))]
            var classes: [JSONValue] = [.string(kind)]
            if line.placeholder { classes.append(.string("placeholder")) }
            if !line.problems.isEmpty { classes.append(.string("incomplete")) }
            object["class"] = .array(classes)
            if let tooltip {
                object["tooltip"] = .string(pango(tooltipText(tooltip)))
            }
            if let fraction = firstGauge(line.body)?.fraction {
                object["percentage"] = .integer(Int64((fraction * 100).rounded()))
            }
            if let symbol = firstSymbol(line.body) { object["alt"] = .string(symbol.rawValue) }
            return JSONValue.object(object).jsonText()
        case .i3blocks:
            var object: [String: JSONValue] = [
                "full_text": .string(InlineRenderer.line(line)),
                "short_text": .string(InlineRenderer.shortLine(line)),
            ]
            if let color = line.background?.dominantColor.barHex { object["color"] = .string(color) }
            return JSONValue.object(object).jsonText()
        }
    }

    /// `text` with Pango markup's special characters as character references.
    public static func pango(_ text: String) -> String {
        MarkupText.escaped(text)
    }

    /// The widget drawn as text without its box, its blank rows and the margin all rows share.
    static func tooltipText(_ widget: ResolvedWidget) -> String {
        let lines = TextRenderer.render(widget, options: .init(color: false, border: false))
            .map(\.trimmingTrailingSpaces).filter { !$0.isEmpty }
        let margin = lines.map { $0.prefix { $0 == " " }.count }.min() ?? 0
        return lines.map { String($0.dropFirst(margin)) }.joined(separator: "\n")
    }

    private static func firstGauge(_ node: ResolvedNode) -> ResolvedGauge? {
        switch node {
        case .gauge(let gauge): return gauge
        case .stack(let stack): return stack.children.lazy.compactMap(firstGauge).first
        case .link(_, let content): return firstGauge(content)
        default: return nil
        }
    }

    private static func firstSymbol(_ node: ResolvedNode) -> Symbol? {
        switch node {
        case .image(let image):
            if case .symbol(let symbol) = image.picture { return symbol }
            return nil
        case .stack(let stack): return stack.children.lazy.compactMap(firstSymbol).first
        case .link(_, let content): return firstSymbol(content)
        default: return nil
        }
    }
}

extension String {
    var trimmingTrailingSpaces: String {
        var view = Substring(self)
        while view.last == " " { view = view.dropLast() }
        return String(view)
    }
}
