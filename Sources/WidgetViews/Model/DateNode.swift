/// `date`: a date written in one of WidgetKit's `Text(date, style:)` styles. `relative` and `timer` texts change as
/// time passes without a new entry: the host keeps them current (the HTML renderer marks them for the page's script,
/// and the renderers say when the text next changes), which is how a countdown costs no budget.
public struct DateNode: Sendable, Hashable {
    /// Where the date comes from.
    public enum Source: Sendable, Hashable {
        /// An RFC 3339 date at a content path (or `@date`, the entry's date).
        case path(ContentPath)
        /// The current time: a clock.
        case now
    }

    public var source: Source
    public var style: DateStyle
    public var font: Font
    public var color: NamedColor?
    /// The content path of an IANA time zone name (`Europe/Paris`) to write `time` and `date` in; nil for the host's.
    public var timeZone: ContentPath?
    /// Whether a `time` shows seconds (a clock that ticks each second).
    public var showsSeconds: Bool

    public init(
        source: Source, style: DateStyle, font: Font = .body, color: NamedColor? = nil, timeZone: ContentPath? = nil,
        showsSeconds: Bool = false
    ) {
        self.source = source
        self.style = style
        self.font = font
        self.color = color
        self.timeZone = timeZone
        self.showsSeconds = showsSeconds
    }
}

/// WidgetKit's date text styles.
public enum DateStyle: String, Sendable, Hashable, CaseIterable {
    /// `in 12 min`, `3 h 5 min ago`: changes each minute (each second in the last minute).
    case relative
    /// `4:59`, `1:04:59`: counts down to the date, then up from it, each second.
    case timer
    /// `14:05` (`14:05:09` with seconds).
    case time
    /// `Thu 26 Nov`, with the year when it is not this year's.
    case date
}
