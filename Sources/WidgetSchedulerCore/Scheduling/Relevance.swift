import Foundation

/// A widget's relevance at an instant, as the smart stack orders by it.
public struct Relevance: Sendable, Hashable {
    /// The provider's score, on the widget's own scale.
    public var score: Double
    /// `score` divided by the widget's greatest past score (entries dated ≤ now, of this timeline and earlier ones;
    /// never a future entry's): comparable across widgets, 1 at the widget's peak so far.
    public var normalized: Double
    /// The date of the entry that gave the score.
    public var since: Date
    /// When the score stops holding: the entry's date plus its duration, or the next entry with a relevance; nil if
    /// it holds until the timeline ends.
    public var until: Date?

    /// Whether it counts at all: a score ≤ 0 means "not relevant".
    public var isRelevant: Bool { score > 0 }

    /// The widget's relevance at `date` under WidgetKit's rule, or nil when no relevance holds then.
    ///
    /// The score is that of the newest entry with a relevance whose date ≤ `date`. It holds for `duration` seconds
    /// after the entry's date, or, when the duration is 0, until the next entry that carries a relevance. `maxScore` is
    /// the greatest score of the widget's earlier timelines' past entries; this timeline's entries dated ≤ `date` join
    /// it, its later ones do not (WidgetKit compares a score "only with that widget's past scores").
    public static func current(in timeline: TimelineOutline?, at date: Date, maxScore: Double) -> Relevance? {
        guard let timeline else { return nil }
        let dates = timeline.dates
        var best: Int?
        var next: Int?
        for (index, relevance) in timeline.relevances.enumerated() where relevance != nil {
            if dates[index] <= date {
                best = index
            } else {
                next = index
                break
            }
        }
        guard let index = best, let relevance = timeline.relevances[index] else { return nil }
        let since = dates[index]
        let until: Date?
        if relevance.duration > 0 {
            // Held within the supported dates: a supported duration after a supported date may pass year 9999.
            until = SupportedRange.clamped(since.addingTimeInterval(relevance.duration))
        } else {
            until = next.map { dates[$0] }
        }
        if let until, until <= date { return nil }
        let scale = max(maxScore, timeline.greatestPastScore(at: date))
        let normalized = scale > 0 ? max(0, relevance.score) / scale : 0
        return Relevance(score: relevance.score, normalized: normalized, since: since, until: until)
    }
}
