import WidgetProtocol

/// A view's element with its content filled in: what every renderer draws. `if`s are decided, bindings read and
/// formatted, date texts written for the render's moment.
public indirect enum ResolvedNode: Sendable, Hashable {
    case stack(ResolvedStack)
    case spacer(minLength: Int)
    case text(ResolvedText)
    case gauge(ResolvedGauge)
    case image(ResolvedImage)
    /// `url` is nil when a field of its template was missing: the content is drawn, but opens nothing.
    case link(url: String?, content: ResolvedNode)
    /// An `if` without an `else` whose field is absent: nothing at all.
    case empty

    /// Whether the node grows along `axis` (see `ViewNode.expands(along:)`).
    public func expands(along axis: Axis) -> Bool {
        switch self {
        case .stack(let stack): return axis == .horizontal ? stack.expandsHorizontally : stack.expandsVertically
        case .gauge(let gauge): return gauge.style == .linear && axis == .horizontal
        case .link(_, let content): return content.expands(along: axis)
        case .image(let image): return image.size == .fill && axis != .depth
        case .spacer, .text, .empty: return false
        }
    }
}

/// A stack, with whether it grows (computed once, as both renderers ask).
public struct ResolvedStack: Sendable, Hashable {
    public var axis: Axis
    public var spacing: Int
    public var alignment: Alignment
    public var children: [ResolvedNode]
    public var expandsHorizontally: Bool
    public var expandsVertically: Bool

    init(axis: Axis, spacing: Int, alignment: Alignment, children: [ResolvedNode]) {
        self.axis = axis
        self.spacing = spacing
        self.alignment = alignment
        self.children = children
        func grows(_ direction: Axis) -> Bool {
            children.contains { child in
                if case .spacer = child { return axis == direction }
                return child.expands(along: direction)
            }
        }
        expandsHorizontally = grows(.horizontal)
        expandsVertically = grows(.vertical)
    }
}

/// Words to draw, plain or (for a date text) kept current by the host.
public struct ResolvedText: Sendable, Hashable {
    /// The words; for a redacted text, as many characters as the bars stand for.
    public var text: String
    public var font: Font
    public var lineLimit: Int?
    public var color: NamedColor?
    /// Drawn as bars of its length: a placeholder.
    public var redacted: Bool
    /// For a date text: what a host script needs to keep it current.
    public var date: ResolvedDate?
}

/// A date text's data for hosts that tick it: the date, the style, and its time zone.
public struct ResolvedDate: Sendable, Hashable {
    /// The date as RFC 3339 (for a clock of `now`, the render's moment).
    public var datetime: String
    public var style: DateStyle
    /// Whether the text shows the current time (a clock).
    public var isNow: Bool
    /// The IANA time zone the text is written in, when the view names one.
    public var timeZone: String?
    public var showsSeconds: Bool
}

/// A gauge or a progress bar.
public struct ResolvedGauge: Sendable, Hashable {
    public var style: GaugeNode.Style
    /// Where the value sits between the bounds, 0...1; nil for a placeholder.
    public var fraction: Double?
    /// The value written by the gauge's format (nil when a bar shows none, or for a placeholder).
    public var valueText: String?
    public var label: String?
    public var color: NamedColor?
    /// The raw value and bounds, for accessibility attributes.
    public var value: Double?
    public var minimum: Double?
    public var maximum: Double?
}

/// A picture.
public struct ResolvedImage: Sendable, Hashable {
    public enum Picture: Sendable, Hashable {
        case symbol(Symbol)
        case asset(String)
        /// An image the provider wrote for the entry: its file name and what the daemon stored of it.
        case provided(name: String, image: EntryImage)
        /// A placeholder: the bound name was missing or wrong.
        case missing
    }

    public var picture: Picture
    public var size: ImageSize
    public var label: String?
    public var color: NamedColor?
}
