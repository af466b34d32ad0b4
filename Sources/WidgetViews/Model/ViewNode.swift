/// One element of a view's tree. A view is data: hosts draw it from an entry's content, and providers never send markup
/// or code.
public indirect enum ViewNode: Sendable, Hashable {
    /// `vstack`, `hstack` or `zstack`.
    case stack(StackNode)
    /// `spacer`: takes the room left along its stack's axis, at least `minLength` points.
    case spacer(minLength: Int)
    /// `text`: a literal or a bound value, formatted.
    case text(TextNode)
    /// `date`: a date the host keeps current by itself (`relative`, `timer`), or shows as a time or a day.
    case date(DateNode)
    /// `gauge` (a ring) or `progress` (a bar).
    case gauge(GaugeNode)
    /// `image`: an asset of the provider, a symbol of the fixed set, or an image the provider wrote for the entry.
    case image(ImageNode)
    /// `link`: its content opens `url` when tapped, in families that answer links.
    case link(url: URLTemplate, content: ViewNode)
    /// `if`: `then` when the field at `path` is present (and not null), else `else`.
    case conditional(path: ContentPath, then: ViewNode, else: ViewNode?)

    /// Whether the node grows to take the room it is offered along `axis`, as a SwiftUI view with a `Spacer` or a
    /// linear `ProgressView` does. Both renderers lay out by this one rule, so they agree.
    public func expands(along axis: Axis) -> Bool {
        switch self {
        case .stack(let stack):
            return stack.children.contains { child in
                if case .spacer = child { return stack.axis == axis }
                return child.expands(along: axis)
            }
        case .spacer:
            // A spacer grows along its stack's axis; the stack asks about it by itself (above).
            return false
        case .gauge(let gauge):
            return gauge.style == .linear && axis == .horizontal
        case .link(_, let content):
            return content.expands(along: axis)
        case .conditional(_, let then, let otherwise):
            return then.expands(along: axis) || (otherwise?.expands(along: axis) ?? false)
        case .image(let image):
            return image.size == .fill && axis != .depth
        case .text, .date:
            return false
        }
    }

    /// The element's name in a view file.
    public var typeName: String {
        switch self {
        case .stack(let stack): return stack.axis.stackName
        case .spacer: return "spacer"
        case .text: return "text"
        case .date: return "date"
        case .gauge(let gauge): return gauge.style == .circular ? "gauge" : "progress"
        case .image: return "image"
        case .link: return "link"
        case .conditional: return "if"
        }
    }
}

/// A layout direction.
public enum Axis: Sendable, Hashable {
    case horizontal, vertical, depth

    /// The stack that lays children out along this axis.
    public var stackName: String {
        switch self {
        case .horizontal: return "hstack"
        case .vertical: return "vstack"
        case .depth: return "zstack"
        }
    }
}
