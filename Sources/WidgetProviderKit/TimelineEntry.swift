import Foundation

/// One pre-dated entry of a timeline, as WidgetKit's `TimelineEntry`.
///
/// The whole entry is encoded as the entry's `content`, so every stored property a host needs to render it is
/// part of the answer.
public protocol TimelineEntry: Encodable, Sendable {
    /// When the entry becomes current.
    var date: Date { get }
    /// How relevant the entry is; nil (the default) when the provider does not say.
    var relevance: TimelineEntryRelevance? { get }
}

extension TimelineEntry {
    public var relevance: TimelineEntryRelevance? { nil }
}
