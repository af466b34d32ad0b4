/// A kind's view for one family: the tree, with the widget-wide tap target, background and margins.
public struct FamilyView: Sendable, Hashable {
    /// Where a tap anywhere on the widget goes (WidgetKit's `widgetURL`): the only tap target of `systemSmall`.
    public var url: URLTemplate?
    public var background: Background?
    /// Points between the widget's edge and its content (SwiftUI's content margins, 16 by default).
    public var padding: Int
    public var body: ViewNode

    /// The margins when a view does not say.
    public static let defaultPadding = 16

    public init(url: URLTemplate? = nil, background: Background? = nil, padding: Int = defaultPadding, body: ViewNode) {
        self.url = url
        self.background = background
        self.padding = padding
        self.body = body
    }
}
