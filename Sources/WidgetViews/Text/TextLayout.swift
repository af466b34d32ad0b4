/// Lays a resolved tree out on a grid of terminal cells, by SwiftUI's rules simplified: a parent offers its room, each
/// child takes what it needs of it, spacers and growing children share what is left, and a row too wide shrinks its
/// widest texts first. Each element is laid out once, plus once more when its parent changes its room.
struct TextLayout {
    /// A run of text at a position, relative to its element's origin.
    struct Run {
        var x: Int
        var y: Int
        var text: String
        var style: TextCanvas.Style
    }

    /// An element laid out: its size and what it draws.
    struct Laid {
        var width: Int
        var height: Int
        var runs: [Run]

        static let nothing = Laid(width: 0, height: 0, runs: [])
    }

    /// Columns for a horizontal length in points (a cell is about 8 points wide).
    static func columns(_ points: Int) -> Int { Int((Double(points) / 8).rounded()) }
    /// Rows for a vertical length in points (a cell is about 21 points tall).
    static func rows(_ points: Int) -> Int { points / 21 }
    /// Columns between an `hstack`'s children: one at least, unless the spacing is 0.
    static func horizontalGap(_ spacing: Int) -> Int { spacing == 0 ? 0 : max(1, columns(spacing)) }
    /// Blank rows between a `vstack`'s children: none below 12 points, as rows are tall.
    static func verticalGap(_ spacing: Int) -> Int { spacing / 12 }

    func layout(_ node: ResolvedNode, width: Int, height: Int) -> Laid {
        guard width > 0, height > 0 else { return .nothing }
        switch node {
        case .stack(let stack):
            switch stack.axis {
            case .vertical: return vertical(stack, width: width, height: height)
            case .horizontal: return horizontal(stack, width: width, height: height)
            case .depth: return depth(stack, width: width, height: height)
            }
        case .spacer, .empty:
            return .nothing
        case .text(let text):
            return self.text(text, width: width, height: height)
        case .gauge(let gauge):
            return gauge.style == .circular ? ring(gauge, width: width, height: height)
                : bar(gauge, width: width, height: height)
        case .image(let image):
            return self.image(image, width: width, height: height)
        case .link(_, let content):
            return layout(content, width: width, height: height)
        }
    }

    // MARK: - Stacks

    /// A stack's children (without the `if`s that drew nothing), each laid out in the whole room, with their lengths
    /// along `axis`; a spacer is not laid out, and its length is its minimum.
    private func measure(
        _ stack: ResolvedStack, along axis: Axis, width: Int, height: Int
    ) -> (children: [ResolvedNode], lengths: [Int], laid: [Laid?]) {
        let children = stack.children.contains(.empty) ? stack.children.filter { $0 != .empty } : stack.children
        var lengths: [Int] = []
        var laid: [Laid?] = []
        lengths.reserveCapacity(children.count)
        laid.reserveCapacity(children.count)
        for child in children {
            if case .spacer(let minLength) = child {
                lengths.append(axis == .vertical ? Self.rows(minLength) : Self.columns(minLength))
                laid.append(nil)
            } else if case .image(let image) = child, image.size == .fill {
                // A filling picture starts as small as can be, as a spacer does, and takes what its siblings leave.
                laid.append(axis == .vertical ? layout(child, width: width, height: 1)
                    : layout(child, width: 1, height: height))
                lengths.append(1)
            } else {
                let result = layout(child, width: width, height: height)
                lengths.append(axis == .vertical ? result.height : result.width)
                laid.append(result)
            }
        }
        return (children, lengths, laid)
    }

    /// Shares `extra` cells among the children that grow along `axis` (spacers too), the first ones taking what does
    /// not divide evenly; a grown child is laid out again at its new length by `relayout`.
    private func grow(
        _ children: [ResolvedNode], along axis: Axis, by extra: Int, lengths: inout [Int], laid: inout [Laid?],
        relayout: (ResolvedNode, Int) -> Laid
    ) {
        let flexible = children.indices.filter { index in
            if case .spacer = children[index] { return true }
            return children[index].expands(along: axis)
        }
        for (order, index) in flexible.enumerated() {
            lengths[index] += extra / flexible.count + (order < extra % flexible.count ? 1 : 0)
            if laid[index] != nil { laid[index] = relayout(children[index], lengths[index]) }
        }
    }

    private func vertical(_ stack: ResolvedStack, width: Int, height: Int) -> Laid {
        let measured = measure(stack, along: .vertical, width: width, height: height)
        let children = measured.children
        var heights = measured.lengths
        var laid = measured.laid
        guard !children.isEmpty else { return .nothing }
        let gap = Self.verticalGap(stack.spacing)
        let gaps = gap * (children.count - 1)
        let total = heights.reduce(0, +) + gaps
        if total > height {
            // Too tall: children keep their height in order until the room runs out; the one cut is laid out again
            // in what is left, so a text ends in an ellipsis rather than mid-line.
            var used = 0
            for index in children.indices {
                let left = max(height - used - (index > 0 ? gap : 0), 0)
                if heights[index] > left {
                    heights[index] = left
                    if laid[index] != nil { laid[index] = layout(children[index], width: width, height: left) }
                }
                used += (index > 0 ? gap : 0) + heights[index]
            }
        } else if total < height && stack.expandsVertically {
            grow(children, along: .vertical, by: height - total, lengths: &heights, laid: &laid) {
                layout($0, width: width, height: $1)
            }
        }
        let stackWidth = stack.expandsHorizontally ? width : min(laid.map { $0?.width ?? 0 }.max() ?? 0, width)
        var runs: [Run] = []
        var y = 0
        for index in children.indices {
            if index > 0 { y += gap }
            if let child = laid[index] {
                let x: Int
                switch stack.alignment.horizontal {
                case .leading: x = 0
                case .center: x = (stackWidth - child.width) / 2
                case .trailing: x = stackWidth - child.width
                }
                append(child, at: x, y, to: &runs)
            }
            y += heights[index]
        }
        return Laid(width: stackWidth, height: min(y, height), runs: runs)
    }

    private func horizontal(_ stack: ResolvedStack, width: Int, height: Int) -> Laid {
        let measured = measure(stack, along: .horizontal, width: width, height: height)
        let children = measured.children
        var widths = measured.lengths
        var laid = measured.laid
        guard !children.isEmpty else { return .nothing }
        let gap = Self.horizontalGap(stack.spacing)
        let gaps = gap * (children.count - 1)
        var over = widths.reduce(0, +) + gaps - width
        if over > 0 {
            // Too wide: the widest child gives up a column, again and again, down to one column each.
            var changed = Set<Int>()
            while over > 0 {
                guard let widest = widths.indices.filter({ laid[$0] != nil && widths[$0] > 1 })
                    .max(by: { widths[$0] < widths[$1] })
                else { break }
                widths[widest] -= 1
                over -= 1
                changed.insert(widest)
            }
            for index in changed { laid[index] = layout(children[index], width: widths[index], height: height) }
        } else if over < 0 && stack.expandsHorizontally {
            grow(children, along: .horizontal, by: -over, lengths: &widths, laid: &laid) {
                layout($0, width: $1, height: height)
            }
        }
        if stack.expandsVertically {
            for index in children.indices where children[index].expands(along: .vertical) {
                laid[index] = layout(children[index], width: widths[index], height: height)
            }
        }
        let stackHeight = stack.expandsVertically ? height : min(laid.map { $0?.height ?? 0 }.max() ?? 0, height)
        var runs: [Run] = []
        var x = 0
        for index in children.indices {
            if index > 0 { x += gap }
            if x >= width { break }
            if let child = laid[index] {
                let y: Int
                switch stack.alignment.vertical {
                case .top: y = 0
                case .center: y = (stackHeight - child.height) / 2
                case .bottom: y = stackHeight - child.height
                }
                append(child, at: x, y, to: &runs, clipWidth: width - x)
            }
            x += widths[index]
        }
        return Laid(width: min(x, width), height: stackHeight, runs: runs)
    }

    private func depth(_ stack: ResolvedStack, width: Int, height: Int) -> Laid {
        let laid = stack.children.map { layout($0, width: width, height: height) }
        let stackWidth = stack.expandsHorizontally ? width : laid.map(\.width).max() ?? 0
        let stackHeight = stack.expandsVertically ? height : laid.map(\.height).max() ?? 0
        var runs: [Run] = []
        for child in laid {
            let x: Int
            switch stack.alignment.horizontal {
            case .leading: x = 0
            case .center: x = (stackWidth - child.width) / 2
            case .trailing: x = stackWidth - child.width
            }
            let y: Int
            switch stack.alignment.vertical {
            case .top: y = 0
            case .center: y = (stackHeight - child.height) / 2
            case .bottom: y = stackHeight - child.height
            }
            append(child, at: x, y, to: &runs)
        }
        return Laid(width: stackWidth, height: stackHeight, runs: runs)
    }

    private func append(_ child: Laid, at x: Int, _ y: Int, to runs: inout [Run], clipWidth: Int? = nil) {
        for run in child.runs {
            var moved = run
            moved.x += x
            moved.y += y
            if let clipWidth, run.x >= clipWidth { continue }
            runs.append(moved)
        }
    }

    // MARK: - Leaves

    private func text(_ text: ResolvedText, width: Int, height: Int) -> Laid {
        let lines = TextWrap.lines(text.text, width: width, maxLines: min(text.lineLimit ?? height, height))
        let style = Self.style(font: text.font, color: text.color, redacted: text.redacted)
        var runs: [Run] = []
        var widest = 0
        for (row, line) in lines.enumerated() {
            runs.append(Run(x: 0, y: row, text: line, style: style))
            widest = max(widest, DisplayWidth.of(line))
        }
        return Laid(width: widest, height: lines.count, runs: runs)
    }

    /// A ring: `◑ 0.42` with its label centered below, as the HTML ring shows it (or `Load ◑ 0.42` on one row).
    private func ring(_ gauge: ResolvedGauge, width: Int, height: Int) -> Laid {
        var runs: [Run] = []
        var x = 0
        if let label = gauge.label, !label.isEmpty, height > 1 {
            var top = ring(ResolvedGauge(style: gauge.style, fraction: gauge.fraction, valueText: gauge.valueText,
                                         label: nil, color: gauge.color), width: width, height: 1)
            let text = TextWrap.truncated(label, width: width)
            let labelWidth = DisplayWidth.of(text)
            let total = max(top.width, labelWidth)
            let shift = (total - top.width) / 2
            for index in top.runs.indices { top.runs[index].x += shift }
            top.runs.append(Run(x: (total - labelWidth) / 2, y: 1, text: text,
                                style: Self.style(font: .caption, color: nil, redacted: false)))
            return Laid(width: total, height: 2, runs: top.runs)
        }
        if let label = gauge.label, !label.isEmpty {
            let text = TextWrap.truncated(label, width: width)
            runs.append(Run(x: 0, y: 0, text: text, style: .plain))
            x = DisplayWidth.of(text) + 1
        }
        let glyph = Self.ringGlyph(gauge.fraction)
        if x < width {
            runs.append(Run(x: x, y: 0, text: glyph, style: Self.style(font: .body, color: gauge.color,
                                                                         redacted: gauge.fraction == nil)))
            x += 1
        }
        let value = gauge.fraction == nil ? String(repeating: Resolver.barCharacter, count: 3) : gauge.valueText
        if let value, x + 1 < width {
            let text = TextWrap.truncated(value, width: width - x - 1)
            runs.append(Run(x: x + 1, y: 0, text: text, style: gauge.fraction == nil
                ? Self.style(font: .body, color: nil, redacted: true) : Self.style(font: .headline, color: nil,
                                                                                   redacted: false)))
            x += 1 + DisplayWidth.of(text)
        }
        return Laid(width: min(x, width), height: 1, runs: runs)
    }

    static func ringGlyph(_ fraction: Double?) -> String {
        guard let fraction else { return "\u{25CB}" }
        switch fraction {
        case ..<0.125: return "\u{25CB}"
        case ..<0.375: return "\u{25D4}"
        case ..<0.625: return "\u{25D1}"
        case ..<0.875: return "\u{25D5}"
        default: return "\u{25CF}"
        }
    }

    /// A bar across the room offered, with its label above and its value after it.
    private func bar(_ gauge: ResolvedGauge, width: Int, height: Int) -> Laid {
        var runs: [Run] = []
        var row = 0
        let value = gauge.valueText.map { TextWrap.truncated($0, width: max(width / 2, 1)) }
        if let label = gauge.label, !label.isEmpty, height > 1 {
            let valueWidth = value.map(DisplayWidth.of) ?? 0
            let text = TextWrap.truncated(label, width: max(width - valueWidth - 1, 1))
            runs.append(Run(x: 0, y: 0, text: text, style: Self.style(font: .caption, color: nil, redacted: false)))
            if let value, valueWidth + DisplayWidth.of(text) < width {
                runs.append(Run(x: width - valueWidth, y: 0, text: value, style: .plain))
            }
            row = 1
        }
        var barWidth = width
        if row == 0, let value {
            barWidth = max(width - DisplayWidth.of(value) - 1, 1)
            runs.append(Run(x: barWidth + 1, y: 0, text: value, style: .plain))
        }
        let filled = gauge.fraction.map { Int(($0 * Double(barWidth)).rounded()) } ?? 0
        if filled > 0 {
            runs.append(Run(x: 0, y: row, text: String(repeating: "\u{2588}", count: filled),
                            style: Self.style(font: .body, color: gauge.color, redacted: false)))
        }
        if barWidth - filled > 0 {
            runs.append(Run(x: filled, y: row, text: String(repeating: "\u{2591}", count: barWidth - filled),
                            style: TextCanvas.Style(sgr: "90")))
        }
        return Laid(width: width, height: row + 1, runs: runs)
    }

    private func image(_ image: ResolvedImage, width: Int, height: Int) -> Laid {
        let text: String
        let style: TextCanvas.Style
        switch image.picture {
        case .symbol(let symbol):
            text = symbol.glyph
            style = Self.style(font: .body, color: image.color, redacted: false)
        case .asset, .provided:
            text = Self.pictureText(image, width: width)
            style = TextCanvas.Style(sgr: "2")
        case .missing:
            text = String(repeating: Resolver.barCharacter, count: image.size == .fill ? 4 : 2)
            style = Self.style(font: .body, color: nil, redacted: true)
        }
        let columns = DisplayWidth.of(text)
        if image.size == .fill {
            // A filling picture takes the whole room, as on a page; its words sit in the middle of it.
            guard columns <= width else { return Laid(width: width, height: height, runs: []) }
            return Laid(width: width, height: height,
                        runs: [Run(x: (width - columns) / 2, y: (height - 1) / 2, text: text, style: style)])
        }
        guard columns <= width else { return .nothing }
        return Laid(width: columns, height: 1, runs: [Run(x: 0, y: 0, text: text, style: style)])
    }

    /// A picture a terminal cannot draw, in words that fit `width`: a provided image's name and size
    /// (`[image cat.jpg 640×480]`, else without `image`, else the name cut short), an asset's label or name.
    static func pictureText(_ image: ResolvedImage, width: Int) -> String {
        switch image.picture {
        case .provided(let name, let stored):
            let size = "\(stored.width)\u{00D7}\(stored.height)"
            for candidate in ["[image \(name) \(size)]", "[\(name) \(size)]"]
            where DisplayWidth.of(candidate) <= width {
                return candidate
            }
            return TextWrap.truncated("[" + name + "]", width: width)
        case .asset(let name):
            return TextWrap.truncated("[" + (image.label ?? name) + "]", width: width)
        case .symbol(let symbol):
            return symbol.glyph
        case .missing:
            return ""
        }
    }

    /// The SGR parameters of a text's look: bold titles and headlines, dim captions, its color, grey bars.
    static func style(font: Font, color: NamedColor?, redacted: Bool) -> TextCanvas.Style {
        if redacted { return redactedStyle }
        let fontIndex = Font.allCases.firstIndex(of: font) ?? 0
        let colorIndex = color.flatMap { NamedColor.allCases.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
        return styles[fontIndex * (NamedColor.allCases.count + 1) + colorIndex]
    }

    private static let redactedStyle = TextCanvas.Style(sgr: "90")

    /// Every font and color's style, made once: a thousand boxes draw thousands of texts.
    private static let styles: [TextCanvas.Style] = Font.allCases.flatMap { font in
        ([nil] + NamedColor.allCases.map(Optional.some)).map { color -> TextCanvas.Style in
            var parts: [String] = []
            switch font {
            case .title, .headline: parts.append("1")
            case .caption: parts.append("2")
            case .body, .monospaced: break
            }
            if let color, !color.ansi.isEmpty, !parts.contains(color.ansi) { parts.append(color.ansi) }
            return TextCanvas.Style(sgr: parts.joined(separator: ";"))
        }
    }
}
