import Foundation

/// A validated timeline: entries sorted by date with no duplicate dates, and a reload policy.
public struct Timeline: Sendable, Hashable, Codable {
    public var entries: [TimelineEntry]
    public var policy: ReloadPolicy

    /// Sorts the entries by date. Callers that need duplicates rejected validate before (see WidgetProtocol).
    public init(entries: [TimelineEntry], policy: ReloadPolicy) {
        // Providers nearly always answer in date order: such entries are kept as they are, not copied by a sort.
        let inOrder = zip(entries, entries.dropFirst()).allSatisfy { $0.date <= $1.date }
        self.entries = inOrder ? entries : entries.sorted { $0.date < $1.date }
        self.policy = policy
    }
}
