import Foundation

/// One widget as `List` reports it and `widgetctl list --json` prints it: `{"id","kind","family","configuration",
/// "state","lastReload","lastReason","lastOutcome","nextReload","nextReason","tokens","currentEntry"}`. Absent values
/// are written as `null`, never left out, so the shape is fixed.
public struct WidgetSummary: Sendable, Hashable, Codable {
    /// The current entry of a widget: its date and the provider's content, with the images the content names.
    public struct CurrentEntry: Sendable, Hashable, Codable {
        public var date: Date
        public var content: JSONValue
        /// The images its content names, by file name (docs/provider-protocol.md, "Images"); absent when none.
        public var images: [String: EntryImage]?

        public init(date: Date, content: JSONValue, images: [String: EntryImage]? = nil) {
            self.date = date
            self.content = content
            self.images = images
        }
    }

    public var id: String
    public var kind: String
    public var family: String
    public var configuration: [String: JSONValue]
    /// `idle`, `pending`, `running`, `backoff` or `quarantined`.
    public var state: String
    /// When the last run started.
    public var lastReload: Date?
    /// The last run's reason (`initial`, `configuration`, `foreground`, `policy`, `explicit`, `retry`).
    public var lastReason: String?
    /// `success`, or the last run's failure reason (`exit`, `signal`, `timeout`, ...).
    public var lastOutcome: String?
    /// When the next run is planned, if one is.
    public var nextReload: Date?
    /// Why the next run happens (a run reason), if one is planned.
    public var nextReason: String?
    /// Tokens left in the widget's budget.
    public var tokens: Double
    public var currentEntry: CurrentEntry?

    public init(
        id: String, kind: String, family: String, configuration: [String: JSONValue], state: String,
        lastReload: Date? = nil, lastReason: String? = nil, lastOutcome: String? = nil,
        nextReload: Date? = nil, nextReason: String? = nil, tokens: Double, currentEntry: CurrentEntry? = nil
    ) {
        self.id = id
        self.kind = kind
        self.family = family
        self.configuration = configuration
        self.state = state
        self.lastReload = lastReload
        self.lastReason = lastReason
        self.lastOutcome = lastOutcome
        self.nextReload = nextReload
        self.nextReason = nextReason
        self.tokens = tokens
        self.currentEntry = currentEntry
    }

    private enum CodingKeys: String, CodingKey {
        case id, kind, family, configuration, state, lastReload, lastReason, lastOutcome, nextReload, nextReason
        case tokens, currentEntry
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(kind, forKey: .kind)
        try container.encode(family, forKey: .family)
        try container.encode(configuration, forKey: .configuration)
        try container.encode(state, forKey: .state)
        try container.encode(lastReload, forKey: .lastReload)
        try container.encode(lastReason, forKey: .lastReason)
        try container.encode(lastOutcome, forKey: .lastOutcome)
        try container.encode(nextReload, forKey: .nextReload)
        try container.encode(nextReason, forKey: .nextReason)
        try container.encode(tokens, forKey: .tokens)
        try container.encode(currentEntry, forKey: .currentEntry)
    }
}
