import Foundation
import WidgetProtocol

/// Draws a resolved widget as an HTML fragment styled by `WidgetStylesheet.css`.
///
/// Every text is escaped; the fragment has no script, no event handler attribute and no `style` attribute (colors,
/// sizes and spacing are classes of the stylesheet), so a page can serve it under a Content-Security-Policy of
/// `default-src 'self'` with no `unsafe-inline` at all. Date texts are `<time>` elements whose `datetime` and `data-*`
/// attributes let a page's script keep them current (docs/views.md, "Keeping dates current").
public enum HTMLRenderer {
    /// How the fragment is drawn.
    public struct Options: Sendable {
        /// The color scheme: follow the page's `prefers-color-scheme`, or force one.
        public var colorScheme: ColorScheme
        /// The URL prefix a host serves the kind's asset folder at (`/assets/weather/`); asset names are appended
        /// percent-encoded, segment by segment. Nil draws assets as placeholders.
        public var assetBaseURL: String?
        /// The URL prefix a host serves the widget's provided images at (`/images/w1/`); an image's SHA-256 is
        /// appended. Nil draws provided images as placeholders.
        public var imageBaseURL: String?

        public init(colorScheme: ColorScheme = .automatic, assetBaseURL: String? = nil, imageBaseURL: String? = nil) {
            self.colorScheme = colorScheme
            self.assetBaseURL = assetBaseURL
            self.imageBaseURL = imageBaseURL
        }
    }

    /// A color scheme.
    public enum ColorScheme: String, Sendable, Hashable, CaseIterable {
        case automatic, light, dark
    }

    /// Resolves and draws `view` in one call.
    public static func render(
        _ view: FamilyView, family: WidgetFamily, content: JSONValue?, context: RenderContext,
        options: Options = Options()
    ) -> (html: String, widget: ResolvedWidget) {
        let widget = Resolver.resolve(view, family: family, content: content, context: context)
        return (render(widget, options: options), widget)
    }

    /// Draws a resolved widget.
    public static func render(_ widget: ResolvedWidget, options: Options = Options()) -> String {
        var writer = HTMLWriter(options: options)
        writer.widget(widget)
        return writer.output
    }
}

/// Writes one widget's markup into a string.
private struct HTMLWriter {
    let options: HTMLRenderer.Options
    var output = ""

    init(options: HTMLRenderer.Options) {
        self.options = options
        output.reserveCapacity(1024)
    }

    mutating func widget(_ widget: ResolvedWidget) {
        output += "<div class=\"wv wv-"
        output += widget.family.rawValue
        switch options.colorScheme {
        case .automatic: break
        case .light: output += " wv-light"
        case .dark: output += " wv-dark"
        }
        switch widget.background {
        case nil: break
        case .color(let color)?:
            output += " wv-bg wv-bg-"
            output += color.rawValue
        case .gradient(let from, let to, let direction)?:
            output += " wv-bg wv-grad wv-from-"
            output += from.rawValue
            output += " wv-to-"
            output += to.rawValue
            output += " wv-dir-"
            output += direction.rawValue
        }
        if widget.placeholder { output += " wv-placeholder" }
        output += "\">"
        if let url = widget.url {
            output += "<a class=\"wv-tap\" href=\""
            escape(url)
            output += "\" aria-label=\"Open\"></a>"
        }
        output += "<div class=\"wv-body wv-pad-"
        output += String(widget.padding)
        output += "\">"
        node(widget.body)
        output += "</div></div>"
    }

    private mutating func node(_ node: ResolvedNode) {
        switch node {
        case .stack(let stack): self.stack(stack)
        case .spacer(let minLength):
            output += "<div class=\"wv-spacer"
            if minLength > 0 {
                output += " wv-min-"
                output += String(minLength)
            }
            output += "\"></div>"
        case .text(let text): self.text(text)
        case .gauge(let gauge):
            if gauge.style == .circular { ring(gauge) } else { bar(gauge) }
        case .image(let image): self.image(image)
        case .link(let url, let content):
            if let url {
                output += "<a class=\"wv-link"
                expansion(content)
                output += "\" href=\""
                escape(url)
                output += "\">"
                self.node(content)
                output += "</a>"
            } else {
                output += "<span class=\"wv-link"
                expansion(content)
                output += "\">"
                self.node(content)
                output += "</span>"
            }
        case .empty:
            break
        }
    }

    private mutating func expansion(_ node: ResolvedNode) {
        if node.expands(along: .horizontal) { output += " wv-xh" }
        if node.expands(along: .vertical) { output += " wv-xv" }
    }

    private mutating func stack(_ stack: ResolvedStack) {
        switch stack.axis {
        case .vertical:
            output += "<div class=\"wv-v wv-a-"
            output += stack.alignment.horizontal.rawValue
        case .horizontal:
            output += "<div class=\"wv-h wv-a-"
            output += stack.alignment.vertical.rawValue
        case .depth:
            output += "<div class=\"wv-z wv-zh-"
            output += stack.alignment.horizontal.rawValue
            output += " wv-zv-"
            output += stack.alignment.vertical.rawValue
        }
        output += " wv-gap-"
        output += String(stack.spacing)
        if stack.expandsHorizontally { output += " wv-xh" }
        if stack.expandsVertically { output += " wv-xv" }
        output += "\">"
        for child in stack.children { node(child) }
        output += "</div>"
    }

    private mutating func text(_ text: ResolvedText) {
        let element = text.date != nil ? "time" : "span"
        output += "<"
        output += element
        output += " class=\"wv-text wv-f-"
        output += text.font.rawValue
        if let limit = text.lineLimit {
            output += " wv-ll-"
            output += String(limit)
        }
        if let color = text.color {
            output += " wv-c-"
            output += color.rawValue
        }
        if text.redacted { output += " wv-redacted" }
        output += "\""
        if let date = text.date {
            output += " datetime=\""
            output += date.datetime
            output += "\" data-style=\""
            output += date.style.rawValue
            output += "\""
            if date.isNow { output += " data-now=\"\"" }
            if let zone = date.timeZone {
                output += " data-tz=\""
                escape(zone)
                output += "\""
            }
            if date.showsSeconds { output += " data-seconds=\"\"" }
        }
        if text.redacted { output += " aria-hidden=\"true\"" }
        output += ">"
        escape(text.text)
        output += "</"
        output += element
        output += ">"
    }

    private mutating func meterAttributes(_ gauge: ResolvedGauge) {
        if let value = gauge.value, let minimum = gauge.minimum, let maximum = gauge.maximum {
            output += " aria-valuemin=\""
            output += NumberText.plain(minimum)
            output += "\" aria-valuemax=\""
            output += NumberText.plain(maximum)
            output += "\" aria-valuenow=\""
            output += NumberText.plain(value)
            output += "\""
        }
        if let label = gauge.label {
            output += " aria-label=\""
            escape(label)
            output += "\""
        }
    }

    private mutating func ring(_ gauge: ResolvedGauge) {
        output += "<div class=\"wv-gauge"
        if let color = gauge.color {
            output += " wv-c-"
            output += color.rawValue
        }
        if gauge.fraction == nil { output += " wv-redacted-gauge" }
        output += "\" role=\"meter\""
        meterAttributes(gauge)
        // An open ring, as WidgetKit's circular gauge: three quarters of a circle (the stylesheet turns its gap to
        // the bottom), so that the label below the value sits in the gap rather than on the stroke.
        let percent = NumberText.fixed((gauge.fraction ?? 0) * 75, decimals: 1, trim: true, grouping: false)
        output += "><svg class=\"wv-ring\" viewBox=\"0 0 36 36\" aria-hidden=\"true\">"
        output += "<circle class=\"wv-ring-track\" cx=\"18\" cy=\"18\" r=\"15\" pathLength=\"100\" "
        output += "stroke-dasharray=\"75 100\"/>"
        output += "<circle class=\"wv-ring-fill\" cx=\"18\" cy=\"18\" r=\"15\" pathLength=\"100\" stroke-dasharray=\""
        output += percent
        output += " 100\"/></svg>"
        span("wv-gauge-value", gauge.valueText)
        span("wv-gauge-label", gauge.label)
        output += "</div>"
    }

    private mutating func bar(_ gauge: ResolvedGauge) {
        output += "<div class=\"wv-progress wv-xh"
        if let color = gauge.color {
            output += " wv-c-"
            output += color.rawValue
        }
        output += "\">"
        span("wv-progress-label", gauge.label)
        output += "<progress class=\"wv-bar"
        if gauge.fraction == nil { output += " wv-redacted-gauge" }
        output += "\" max=\"1\" value=\""
        output += NumberText.fixed(gauge.fraction ?? 0, decimals: 4, trim: true, grouping: false)
        output += "\""
        meterAttributes(gauge)
        output += "></progress>"
        span("wv-progress-value", gauge.valueText)
        output += "</div>"
    }

    private mutating func image(_ image: ResolvedImage) {
        let size = " wv-img-" + image.size.rawValue + (image.size == .fill ? " wv-xh wv-xv" : "")
        switch image.picture {
        case .symbol(let symbol):
            output += "<span class=\"wv-sym"
            output += size
            if let color = image.color {
                output += " wv-c-"
                output += color.rawValue
            }
            output += "\" role=\"img\" aria-label=\""
            escape(image.label ?? symbol.rawValue)
            output += "\">"
            output += symbol.glyph
            output += "</span>"
        case .asset(let name) where options.assetBaseURL != nil:
            let base = options.assetBaseURL ?? ""
            output += "<img class=\"wv-img"
            output += size
            output += "\" src=\""
            escape(base + name.split(separator: "/").map { URLTemplate.percentEncoded(String($0)) }
                .joined(separator: "/"))
            output += "\" alt=\""
            escape(image.label ?? "")
            output += "\">"
        case .provided(_, let stored) where options.imageBaseURL != nil:
            output += "<img class=\"wv-img"
            output += size
            output += "\" src=\""
            escape((options.imageBaseURL ?? "") + stored.sha256)
            output += "\" width=\""
            output += String(stored.width)
            output += "\" height=\""
            output += String(stored.height)
            output += "\" alt=\""
            escape(image.label ?? "")
            output += "\">"
        case .asset, .provided, .missing:
            output += "<span class=\"wv-img-missing"
            output += size
            output += "\" aria-hidden=\"true\"></span>"
        }
    }

    /// A `<span>` of class `className` holding `text`, when there is text.
    private mutating func span(_ className: String, _ text: String?) {
        guard let text else { return }
        output += "<span class=\""
        output += className
        output += "\">"
        escape(text)
        output += "</span>"
    }

    /// Appends `text` escaped, safe in text and in quoted attributes alike.
    private mutating func escape(_ text: String) {
        MarkupText.append(text, to: &output)
    }
}
