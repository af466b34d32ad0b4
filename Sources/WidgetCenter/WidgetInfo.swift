import WidgetProtocol

/// One widget the user placed, as WidgetKit's `WidgetInfo`: its kind, family and configuration, plus the id the
/// daemon gave it (`widgetctl reload --widget ID`, `widgetctl timeline ID`).
public struct WidgetInfo: Sendable, Hashable, Identifiable {
    public var id: String
    /// The kind, as the provider's manifest names it.
    public var kind: String
    /// The size class: `systemSmall`, `systemMedium`, `accessoryInline`... or a host's own family name.
    public var family: String
    /// The widget's parameter values by name, as the user configured them (`widgetctl configure`).
    public var configuration: [String: JSONValue]

    public init(id: String, kind: String, family: String, configuration: [String: JSONValue]) {
        self.id = id
        self.kind = kind
        self.family = family
        self.configuration = configuration
    }

    /// The configuration part of a widget `List` reports.
    init(_ summary: WidgetSummary) {
        self.init(id: summary.id, kind: summary.kind, family: summary.family, configuration: summary.configuration)
    }
}
