/// `text`: a literal string, or the value at a content path formatted by `format`.
public struct TextNode: Sendable, Hashable {
    /// Where the words come from.
    public enum Source: Sendable, Hashable {
        case literal(String)
        case path(ContentPath)
    }

    public var source: Source
    /// How a bound value is written; nil writes strings as they are and numbers plainly.
    public var format: TextFormat?
    public var font: Font
    /// The most lines the text may take (1...10); nil for as many as fit.
    public var lineLimit: Int?
    public var color: NamedColor?

    public init(
        source: Source, format: TextFormat? = nil, font: Font = .body, lineLimit: Int? = nil, color: NamedColor? = nil
    ) {
        self.source = source
        self.format = format
        self.font = font
        self.lineLimit = lineLimit
        self.color = color
    }
}

/// A text's type style, as SwiftUI's `Font` text styles.
public enum Font: String, Sendable, Hashable, CaseIterable {
    case title, headline, body, caption, monospaced
}

/// How a bound value becomes text.
public enum TextFormat: Sendable, Hashable {
    /// A number: `decimals` fixed (nil: integers as they are, other numbers to at most 2 decimals), with thousands
    /// separators when `grouping`.
    case number(decimals: Int?, grouping: Bool)
    /// A fraction as a percentage: 0.42 is `42%`.
    case percent(decimals: Int?)
    /// A number and its unit: `21 km/h`, and `21°C` for units that start with a degree, percent or prime sign.
    case unit(String, decimals: Int?)
    /// An RFC 3339 date as a day and a time: `Thu 26 Nov 14:05`.
    case date
    /// A number of seconds as a span: `3 d 4 h`, `4 h 12 min`, `45 s`.
    case duration

    /// The format's name in a view file.
    public var name: String {
        switch self {
        case .number: return "number"
        case .percent: return "percent"
        case .unit: return "unit"
        case .date: return "date"
        case .duration: return "duration"
        }
    }

    /// Every format name.
    public static let names = ["number", "percent", "unit", "date", "duration"]
}
