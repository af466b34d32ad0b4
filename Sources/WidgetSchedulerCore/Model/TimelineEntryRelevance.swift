/// How relevant an entry is, as WidgetKit's `TimelineEntryRelevance`.
///
/// The score is on the widget's own scale and is compared only with that widget's past scores; a score ≤ 0 means
/// "not relevant". The duration is how long after the entry's date the relevance holds; 0 means until the next entry
/// that carries a relevance.
public struct TimelineEntryRelevance: Sendable, Hashable, Codable {
    public var score: Double
    public var duration: Double

    public init(score: Double, duration: Double = 0) {
        self.score = score
        self.duration = duration
    }
}
