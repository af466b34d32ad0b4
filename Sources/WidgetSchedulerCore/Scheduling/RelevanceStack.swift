import Foundation

/// Orders widgets as a smart stack does: the most relevant first.
public enum RelevanceStack {
    /// One widget's place in the stack.
    public struct Item: Sendable, Hashable {
        public var widget: String
        public var relevance: Relevance?
        /// Plain words for why it sits where it does.
        public var explanation: String
    }

    /// The widgets ordered by normalised relevance, highest first. Relevant widgets come before the others; ties
    /// keep the order of the greater raw score, then the widget id, so the order is stable.
    public static func order(_ widgets: [WidgetSchedule], at date: Date) -> [Item] {
        let items = widgets.map { widget -> Item in
            let relevance = Relevance.current(in: widget.timeline, at: date, maxScore: widget.maxRelevanceScore)
            return Item(widget: widget.id, relevance: relevance, explanation: explain(relevance))
        }
        return items.sorted { lhs, rhs in
            let left = lhs.relevance.map { $0.isRelevant ? $0.normalized : -1 } ?? -2
            let right = rhs.relevance.map { $0.isRelevant ? $0.normalized : -1 } ?? -2
            if left != right { return left > right }
            let leftScore = lhs.relevance?.score ?? 0
            let rightScore = rhs.relevance?.score ?? 0
            if leftScore != rightScore { return leftScore > rightScore }
            return lhs.widget < rhs.widget
        }
    }

    static func explain(_ relevance: Relevance?) -> String {
        guard let relevance else { return "no relevance holds now" }
        guard relevance.isRelevant else { return "score \(format(relevance.score)) ≤ 0: not relevant" }
        let percent = Int(saturating: relevance.normalized * 100)
        let span = relevance.until.map { "until \(iso($0))" } ?? "until the timeline ends"
        return "score \(format(relevance.score)), \(percent)% of its own maximum, \(span)"
    }

    private static func format(_ value: Double) -> String {
        Int64(exactly: value).map { String($0) } ?? String(value)
    }

    private static func iso(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
