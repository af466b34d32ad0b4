import Foundation

/// A family's view filled with one entry's content at one moment: what the renderers draw, with when it next changes
/// and what could not be drawn.
public struct ResolvedWidget: Sendable, Hashable {
    public var family: WidgetFamily
    /// The widget's tap target, nil when it has none (or a field of its template was missing).
    public var url: String?
    public var background: Background?
    public var padding: Int
    public var body: ResolvedNode
    /// The earliest moment a visible date text says something else; nil when nothing changes until the next entry.
    /// A host sleeps until then: a widget without `relative`, `timer` or clock texts never wakes it.
    public var nextChange: Date?
    /// What the content lacked, in tree order (each path once).
    public var problems: [RenderProblem]
    /// Whether this is the placeholder form.
    public var placeholder: Bool
}
