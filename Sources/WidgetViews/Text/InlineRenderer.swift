/// A widget as one line of text, for `accessoryInline` and status bars: the texts of the tree in order, a stack's
/// rows joined by ` · `, a row's items by a space; gauges as their value, symbols as their glyph.
public enum InlineRenderer {
    /// The widget's line, cut to `maxWidth` columns (with `…`) when given.
    public static func line(_ widget: ResolvedWidget, color: Bool = false, maxWidth: Int? = nil) -> String {
        var pieces: [Piece] = []
        collect(widget.body, into: &pieces)
        var line = ""
        var width = 0
        var pendingSeparator: String?
        for piece in pieces {
            switch piece {
            case .separator(let separator):
                if !line.isEmpty, pendingSeparator != " · " { pendingSeparator = separator }
            case .words(let text, let style):
                let words = text.trimmingSpaces
                guard !words.isEmpty else { continue }
                if let separator = pendingSeparator, !line.isEmpty {
                    line += separator
                    width += DisplayWidth.of(separator)
                }
                pendingSeparator = nil
                var shown = words
                if let maxWidth, width + DisplayWidth.of(words) > maxWidth {
                    shown = TextWrap.truncated(words, width: max(maxWidth - width, 1))
                }
                line += color && !style.sgr.isEmpty ? "\u{1B}[" + style.sgr + "m" + shown + "\u{1B}[0m" : shown
                width += DisplayWidth.of(shown)
                if let maxWidth, width >= maxWidth { return line }
            }
        }
        return line
    }

    /// The first words of the line (its first text, date, value or symbol and the words after it in the same row),
    /// for a status bar's short form.
    public static func shortLine(_ widget: ResolvedWidget) -> String {
        var pieces: [Piece] = []
        collect(widget.body, into: &pieces)
        var words: [String] = []
        for piece in pieces {
            switch piece {
            case .separator(let separator):
                if separator == " · " && !words.isEmpty { return words.joined(separator: " ") }
            case .words(let text, _):
                let trimmed = text.trimmingSpaces
                if !trimmed.isEmpty { words.append(trimmed) }
            }
        }
        return words.joined(separator: " ")
    }

    private enum Piece {
        case words(String, TextCanvas.Style)
        case separator(String)
    }

    private static func collect(_ node: ResolvedNode, into pieces: inout [Piece]) {
        switch node {
        case .stack(let stack):
            let separator = stack.axis == .horizontal ? " " : " \u{00B7} "
            for (index, child) in stack.children.enumerated() {
                if index > 0 { pieces.append(.separator(separator)) }
                collect(child, into: &pieces)
            }
        case .spacer:
            pieces.append(.separator(" "))
        case .text(let text):
            pieces.append(.words(text.text, TextLayout.style(font: text.font, color: text.color,
                                                                redacted: text.redacted)))
        case .gauge(let gauge):
            if let label = gauge.label {
                pieces.append(.words(label, .plain))
                pieces.append(.separator(" "))
            }
            if gauge.fraction == nil {
                pieces.append(.words(String(repeating: Resolver.barCharacter, count: 3), TextCanvas.Style(sgr: "90")))
            } else {
                let value = gauge.valueText ?? NumberText.fixed((gauge.fraction ?? 0) * 100, decimals: 0, trim: false,
                                                                grouping: false) + "%"
                pieces.append(.words(value, TextLayout.style(font: .body, color: gauge.color, redacted: false)))
            }
        case .image(let image):
            switch image.picture {
            case .symbol(let symbol):
                pieces.append(.words(symbol.glyph, TextLayout.style(font: .body, color: image.color, redacted: false)))
            case .asset, .provided:
                pieces.append(.words(TextLayout.pictureText(image, width: .max), .plain))
            case .missing:
                break
            }
        case .link(_, let content):
            collect(content, into: &pieces)
        case .empty:
            break
        }
    }
}

extension String {
    /// The text without leading and trailing spaces.
    var trimmingSpaces: String {
        guard first == " " || last == " " else { return self }
        var view = Substring(self)
        while view.first == " " { view = view.dropFirst() }
        while view.last == " " { view = view.dropLast() }
        return String(view)
    }
}
