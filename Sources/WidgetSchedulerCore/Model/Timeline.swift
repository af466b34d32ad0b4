import Foundation

/// A validated timeline: entries sorted by date with no duplicate dates, and a reload policy.
public struct Timeline: Sendable, Hashable, Codable {
    public var entries: [TimelineEntry]
    public var policy: ReloadPolicy

    /// Sorts the entries by date. Callers that need duplicates rejected validate before (see WidgetProtocol).
    public init(entries: [TimelineEntry], policy: ReloadPolicy) {
        self.entries = entries.sorted { $0.date < $1.date }
        self.policy = policy
    }

    /// The index of the entry current at `date`: the one with the greatest date ≤ `date`, or nil if none yet.
    public func currentEntryIndex(at date: Date) -> Int? {
        var low = 0
        var high = entries.count
        while low < high {
            let mid = (low + high) / 2
            if entries[mid].date <= date { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? nil : low - 1
    }

    /// The date of the first entry strictly after `date`, if any: when the current entry next changes.
    public func nextEntryDate(after date: Date) -> Date? {
        let next = (currentEntryIndex(at: date) ?? -1) + 1
        return next < entries.count ? entries[next].date : nil
    }
}
