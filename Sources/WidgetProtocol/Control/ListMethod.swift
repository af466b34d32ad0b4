/// `List`: every widget, as `getCurrentConfigurations()` returns them plus the scheduler's view.
public enum ListMethod: VarlinkMethod {
    public static let method = ControlMethod.list
    public typealias Parameters = NoParameters

    public struct Reply: Sendable, Hashable, Codable {
        public var widgets: [WidgetSummary]

        public init(widgets: [WidgetSummary]) {
            self.widgets = widgets
        }
    }
}
