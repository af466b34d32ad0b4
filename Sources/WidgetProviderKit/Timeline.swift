/// Entries and a reload policy, as WidgetKit's `Timeline`.
public struct Timeline<EntryType: TimelineEntry>: Sendable {
    public var entries: [EntryType]
    public var policy: TimelineReloadPolicy

    public init(entries: [EntryType], policy: TimelineReloadPolicy) {
        self.entries = entries
        self.policy = policy
    }
}
