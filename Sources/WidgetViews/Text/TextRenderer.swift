import WidgetProtocol

/// Draws a resolved widget as text: a box at the family's size for a terminal (`systemSmall` and up, and the
/// rectangular and circular accessories), or one line for `accessoryInline` and status bars.
///
/// ANSI color is used only when the caller says so: the host decides (a terminal, and `NO_COLOR` unset). Content
/// text is sanitized first, so no provider can send escape sequences to a terminal.
public enum TextRenderer {
    /// How the text is drawn.
    public struct Options: Sendable {
        /// Whether to write ANSI SGR sequences.
        public var color: Bool
        /// Words on the box's top edge (`w3 · weather`).
        public var title: String?
        /// Whether to draw the border; without it the lines are the box's inside (a tooltip, a plain preview).
        public var border: Bool

        public init(color: Bool = false, title: String? = nil, border: Bool = true) {
            self.color = color
            self.title = title
            self.border = border
        }
    }

    /// Resolves and draws `view` in one call.
    public static func render(
        _ view: FamilyView, family: WidgetFamily, content: JSONValue?, context: RenderContext,
        options: Options = Options()
    ) -> (lines: [String], widget: ResolvedWidget) {
        let widget = Resolver.resolve(view, family: family, content: content, context: context)
        return (render(widget, options: options), widget)
    }

    /// The widget's lines: one for `accessoryInline`, the box's rows otherwise.
    public static func render(_ widget: ResolvedWidget, options: Options = Options()) -> [String] {
        if widget.family.isInline {
            return [InlineRenderer.line(widget, color: options.color, maxWidth: widget.family.textGrid.columns)]
        }
        return canvas(widget, options: options).lines(color: options.color)
    }

    /// The widget's lines as one text, each line ended by a newline: what a terminal host prints.
    public static func text(_ widget: ResolvedWidget, options: Options = Options()) -> String {
        if widget.family.isInline {
            return InlineRenderer.line(widget, color: options.color, maxWidth: widget.family.textGrid.columns) + "\n"
        }
        return canvas(widget, options: options).text(color: options.color)
    }

    private static func canvas(_ widget: ResolvedWidget, options: Options) -> TextCanvas {
        let grid = widget.family.textGrid
        // Accessories have no margins of their own on a Lock Screen; one column keeps their text off the border.
        let paddingColumns = widget.family.isAccessory ? 1 : TextLayout.columns(widget.padding)
        let paddingRows = widget.family.isAccessory ? 0 : TextLayout.rows(widget.padding)
        let innerWidth = grid.columns - 2 * paddingColumns
        let innerHeight = grid.rows - 2 * paddingRows
        let laid = TextLayout().layout(widget.body, width: innerWidth, height: innerHeight)
        // The root is centered in the widget, as SwiftUI centers a widget's view, unless it grows to fill it.
        let x = paddingColumns + (widget.body.expands(along: .horizontal) ? 0 : (innerWidth - laid.width) / 2)
        let y = paddingRows + (widget.body.expands(along: .vertical) ? 0 : (innerHeight - laid.height) / 2)
        let inset = options.border ? 1 : 0
        var canvas = TextCanvas(width: grid.columns + 2 * inset, height: grid.rows + 2 * inset)
        for run in laid.runs where run.y < innerHeight {
            canvas.write(run.text, x: inset + x + run.x, y: inset + y + run.y,
                         limit: inset + paddingColumns + innerWidth, style: run.style)
        }
        if options.border { drawBorder(&canvas, widget: widget, title: options.title) }
        return canvas
    }

    private static func drawBorder(_ canvas: inout TextCanvas, widget: ResolvedWidget, title: String?) {
        let style = canvas.styleNumber(TextCanvas.Style(sgr: widget.background.map { $0.dominantColor.ansi } ?? "2"))
        let width = canvas.width
        let height = canvas.height
        for column in 1..<(width - 1) {
            canvas.put("\u{2500}", x: column, y: 0, style: style)
            canvas.put("\u{2500}", x: column, y: height - 1, style: style)
        }
        canvas.put("\u{256D}", x: 0, y: 0, style: style)
        canvas.put("\u{256E}", x: width - 1, y: 0, style: style)
        canvas.put("\u{2570}", x: 0, y: height - 1, style: style)
        canvas.put("\u{256F}", x: width - 1, y: height - 1, style: style)
        for row in 1..<(height - 1) {
            canvas.put("\u{2502}", x: 0, y: row, style: style)
            canvas.put("\u{2502}", x: width - 1, y: row, style: style)
        }
        if let title, width > 6 {
            let text = " " + TextWrap.truncated(Sanitized.text(title), width: width - 6) + " "
            canvas.write(text, x: 2, y: 0, limit: width - 2, style: TextCanvas.Style(sgr: "1"))
        }
    }
}
