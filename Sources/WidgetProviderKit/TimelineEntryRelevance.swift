import Foundation

/// How relevant an entry is, as WidgetKit's `TimelineEntryRelevance`.
///
/// `score` is on the widget's own scale (only compared with its own past scores; ≤ 0 means not relevant);
/// `duration` is how long after the entry's date it holds, 0 meaning until the next entry with a relevance.
public struct TimelineEntryRelevance: Sendable, Hashable, Codable {
    public var score: Float
    public var duration: TimeInterval

    public init(score: Float, duration: TimeInterval = 0) {
        self.score = score
        self.duration = duration
    }
}
