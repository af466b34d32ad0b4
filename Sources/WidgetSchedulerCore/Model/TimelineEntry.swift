import Foundation

/// One pre-dated entry of a timeline.
public struct TimelineEntry: Sendable, Hashable, Codable {
    /// When the entry becomes current (wall clock).
    public var date: Date
    /// Its relevance, if the provider gave one.
    public var relevance: TimelineEntryRelevance?
    /// The provider's content as JSON text. The core never looks inside it.
    public var content: String

    public init(date: Date, relevance: TimelineEntryRelevance? = nil, content: String = "null") {
        self.date = date
        self.relevance = relevance
        self.content = content
    }
}
