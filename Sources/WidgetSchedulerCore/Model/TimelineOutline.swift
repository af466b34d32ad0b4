import Foundation

/// A timeline as the scheduler keeps it: each entry's date and relevance, and the reload policy.
///
/// Entries' contents are not here: scheduling never looks at them, and the contents of 100 000 widgets' timelines
/// would not fit the daemon's memory budget. The daemon keeps them in its store, and the current entry's content
/// beside each widget. Dates are sorted and distinct, as in the `Timeline` the outline was made from.
public struct TimelineOutline: Sendable, Hashable, Codable {
    /// One entry without its content.
    public struct Entry: Sendable, Hashable, Codable {
        public var date: Date
        public var relevance: TimelineEntryRelevance?

        public init(date: Date, relevance: TimelineEntryRelevance? = nil) {
            self.date = date
            self.relevance = relevance
        }
    }

    /// Entry dates, ascending.
    public private(set) var dates: [Date]
    /// Entry relevances, index for index with `dates`; empty when no entry has one (the common case, and half the
    /// memory of an outline).
    public private(set) var relevances: [TimelineEntryRelevance?]
    public var policy: ReloadPolicy

    /// The outline of a validated timeline.
    public init(_ timeline: Timeline) {
        dates = timeline.entries.map(\.date)
        relevances = timeline.entries.contains { $0.relevance != nil } ? timeline.entries.map(\.relevance) : []
        policy = timeline.policy
    }

    /// An outline from stored parts. Returns nil unless the dates ascend strictly and `relevances` is empty or
    /// matches `dates` in count.
    public init?(dates: [Date], relevances: [TimelineEntryRelevance?], policy: ReloadPolicy) {
        guard relevances.isEmpty || relevances.count == dates.count,
              zip(dates, dates.dropFirst()).allSatisfy({ $0 < $1 }) else { return nil }
        self.dates = dates
        self.relevances = relevances.contains { $0 != nil } ? relevances : []
        self.policy = policy
    }

    public var count: Int { dates.count }

    public subscript(index: Int) -> Entry {
        Entry(date: dates[index], relevance: relevances.isEmpty ? nil : relevances[index])
    }

    /// The index of the entry current at `date`: the one with the greatest date ≤ `date`, or nil if none yet.
    public func currentEntryIndex(at date: Date) -> Int? {
        var low = 0
        var high = dates.count
        while low < high {
            let mid = (low + high) / 2
            if dates[mid] <= date { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? nil : low - 1
    }

    /// The greatest relevance score among the entries dated ≤ `date`, or 0 when none carries one: the part of the
    /// timeline that is the widget's past.
    public func greatestPastScore(at date: Date) -> Double {
        guard !relevances.isEmpty, let last = currentEntryIndex(at: date) else { return 0 }
        var greatest = 0.0
        for case let relevance? in relevances[...last] { greatest = max(greatest, relevance.score) }
        return greatest
    }

    /// The date of the first entry strictly after `date`, if any: when the current entry next changes.
    public func nextEntryDate(after date: Date) -> Date? {
        let next = (currentEntryIndex(at: date) ?? -1) + 1
        return next < dates.count ? dates[next] : nil
    }
}
