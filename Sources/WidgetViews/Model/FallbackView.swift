import WidgetProtocol

/// The view a host draws for a kind that has none for a family: each top-level field of the content that is a string,
/// a number or a boolean, as `name value` rows, sorted by name (at most twelve).
public enum FallbackView {
    /// The most rows drawn.
    public static let maximumRows = 12

    public static func view(for content: JSONValue?) -> FamilyView {
        var rows: [ViewNode] = []
        if case .object(let members)? = content {
            for name in members.keys.sorted() {
                guard rows.count < maximumRows, let path = ContentPath(name) else { continue }
                switch members[name] {
                case .string?, .integer?, .number?, .bool?:
                    rows.append(.stack(StackNode(axis: .horizontal, spacing: 8, children: [
                        .text(TextNode(source: .literal(name), font: .caption, lineLimit: 1, color: .secondary)),
                        .text(TextNode(source: .path(path), lineLimit: 1)),
                    ])))
                default:
                    continue
                }
            }
        }
        let alignment = Alignment(horizontal: .leading)
        return FamilyView(body: .stack(StackNode(axis: .vertical, spacing: 2, alignment: alignment, children: rows)))
    }
}
