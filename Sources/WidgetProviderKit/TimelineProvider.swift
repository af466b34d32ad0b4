/// Provides a widget kind's entries, as WidgetKit's `TimelineProvider`.
///
/// Implement `placeholder(in:)`, and for snapshots and timelines either the completion-handler methods (as in
/// WidgetKit) or the async ones. `defaultConfiguration(in:)` and `options(for:search:in:)` answer the `defaults`
/// and `options` requests; their default implementations have no opinion.
public protocol TimelineProvider {
    associatedtype Entry: TimelineEntry
    typealias Context = TimelineProviderContext

    /// An entry shown while nothing better exists. It must be fast and use no real data.
    func placeholder(in context: Context) -> Entry
    /// One entry for a preview.
    func getSnapshot(in context: Context, completion: @escaping @Sendable (Entry) -> Void)
    /// The timeline.
    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<Entry>) -> Void)
    /// One entry for a preview; by default, calls `getSnapshot`.
    func snapshot(in context: Context) async -> Entry
    /// The timeline; by default, calls `getTimeline`.
    func timeline(in context: Context) async -> Timeline<Entry>
    /// Parameter values for a widget just added, e.g. the location the app last used. Keys left out take the
    /// manifest's defaults; the default implementation returns none.
    func defaultConfiguration(in context: Context) async -> [String: ParameterValue]
    /// The choices for a parameter whose manifest says `options = "dynamic"`, filtered by `search` if given.
    func options(for parameter: String, search: String?, in context: Context) async -> [ParameterOption]
}

extension TimelineProvider {
    public func getSnapshot(in context: Context, completion: @escaping @Sendable (Entry) -> Void) {
        completion(placeholder(in: context))
    }

    public func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<Entry>) -> Void) {
        completion(Timeline(entries: [placeholder(in: context)], policy: .atEnd))
    }

    public func snapshot(in context: Context) async -> Entry {
        await withCheckedContinuation { continuation in
            getSnapshot(in: context) { continuation.resume(returning: $0) }
        }
    }

    public func timeline(in context: Context) async -> Timeline<Entry> {
        await withCheckedContinuation { continuation in
            getTimeline(in: context) { continuation.resume(returning: $0) }
        }
    }

    public func defaultConfiguration(in context: Context) async -> [String: ParameterValue] { [:] }

    public func options(for parameter: String, search: String?, in context: Context) async -> [ParameterOption] { [] }
}
