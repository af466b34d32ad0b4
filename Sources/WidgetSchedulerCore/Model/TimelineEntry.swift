import Foundation

/// One pre-dated entry of a timeline.
public struct TimelineEntry: Sendable, Hashable, Codable {
    /// When the entry becomes current (wall clock).
    public var date: Date
    /// Its relevance, if the provider gave one.
    public var relevance: TimelineEntryRelevance?
    /// The provider's content as JSON text. The core never looks inside it.
    public var content: String
    /// The images the content names, by file name, once the daemon has stored them; empty for most entries.
    public var images: [String: EntryImage]

    public init(date: Date, relevance: TimelineEntryRelevance? = nil, content: String = "null",
                images: [String: EntryImage] = [:]) {
        self.date = date
        self.relevance = relevance
        self.content = content
        self.images = images
    }

    private enum CodingKeys: String, CodingKey {
        case date, relevance, content, images
    }

    // By hand, so that entries stored before images existed (no `images` key) read back with none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        date = try container.decode(Date.self, forKey: .date)
        relevance = try container.decodeIfPresent(TimelineEntryRelevance.self, forKey: .relevance)
        content = try container.decode(String.self, forKey: .content)
        images = try container.decodeIfPresent([String: EntryImage].self, forKey: .images) ?? [:]
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(date, forKey: .date)
        try container.encodeIfPresent(relevance, forKey: .relevance)
        try container.encode(content, forKey: .content)
        if !images.isEmpty { try container.encode(images, forKey: .images) }
    }
}
