/// `vstack`, `hstack` or `zstack`: children laid out along an axis, `spacing` points apart, aligned across it.
public struct StackNode: Sendable, Hashable {
    public var axis: Axis
    /// Points between children; nil for the default (8, as SwiftUI's).
    public var spacing: Int?
    /// Across the axis: `horizontal` for a `vstack`, `vertical` for an `hstack`, both for a `zstack`.
    public var alignment: Alignment
    public var children: [ViewNode]

    /// Points between children when a stack does not say.
    public static let defaultSpacing = 8

    public init(axis: Axis, spacing: Int? = nil, alignment: Alignment = .center, children: [ViewNode]) {
        self.axis = axis
        self.spacing = spacing
        self.alignment = alignment
        self.children = children
    }

    /// The spacing in effect.
    public var effectiveSpacing: Int { spacing ?? Self.defaultSpacing }
}

/// Where children sit across a stack's axis.
public struct Alignment: Sendable, Hashable {
    public enum Horizontal: String, Sendable, Hashable, CaseIterable {
        case leading, center, trailing
    }

    public enum Vertical: String, Sendable, Hashable, CaseIterable {
        case top, center, bottom
    }

    public var horizontal: Horizontal
    public var vertical: Vertical

    public init(horizontal: Horizontal = .center, vertical: Vertical = .center) {
        self.horizontal = horizontal
        self.vertical = vertical
    }

    public static let center = Alignment()

    /// A `zstack`'s alignment names, SwiftUI's: `topLeading`, `top`, ..., `center`, ..., `bottomTrailing`.
    public static let zstackNames: [String: Alignment] = {
        var names: [String: Alignment] = [:]
        for vertical in Vertical.allCases {
            for horizontal in Horizontal.allCases {
                names[name(horizontal, vertical)] = Alignment(horizontal: horizontal, vertical: vertical)
            }
        }
        return names
    }()

    /// The `zstack` name of this alignment.
    public var zstackName: String { Self.name(horizontal, vertical) }

    private static func name(_ horizontal: Horizontal, _ vertical: Vertical) -> String {
        switch (vertical, horizontal) {
        case (.center, .center): return "center"
        case (.center, _): return horizontal.rawValue
        case (_, .center): return vertical.rawValue
        default: return vertical.rawValue + horizontal.rawValue.prefix(1).uppercased() + horizontal.rawValue.dropFirst()
        }
    }
}
