import Foundation

/// What a provider knows about the request, as WidgetKit's `TimelineProviderContext`, plus the widget's
/// configuration, its group's data directory and the reason for the run.
public struct TimelineProviderContext: Sendable {
    /// The widget kind asked for.
    public var kind: String
    /// The widget's id in the daemon, when the request is about one widget.
    public var widgetID: String?
    public var family: WidgetFamily
    /// True for previews: answer fast, with sample data.
    public var isPreview: Bool
    /// The widget's parameters by name (its intent, in WidgetKit's terms).
    public var configuration: [String: ParameterValue]
    /// The shared data directory of the manifest's group, if it has one.
    public var dataDirectory: URL?
    /// Why the run happens (`initial`, `configuration`, `foreground`, `policy`, `explicit`, `retry`), if known.
    public var reason: String?
    /// The daemon's clock when it started the run. Use it rather than `Date()` so previews and tests are repeatable.
    public var now: Date

    public init(
        kind: String,
        widgetID: String? = nil,
        family: WidgetFamily = .systemSmall,
        isPreview: Bool = false,
        configuration: [String: ParameterValue] = [:],
        dataDirectory: URL? = nil,
        reason: String? = nil,
        now: Date = Date()
    ) {
        self.kind = kind
        self.widgetID = widgetID
        self.family = family
        self.isPreview = isPreview
        self.configuration = configuration
        self.dataDirectory = dataDirectory
        self.reason = reason
        self.now = now
    }

    /// The group value stored for `key`, if the manifest has a group and the app wrote it.
    public func groupValue(forKey key: String) -> GroupValue? {
        dataDirectory.flatMap { GroupValue.read(key: key, in: $0) }
    }
}
