/// A widget's background, as SwiftUI's `containerBackground`: a color or a two-color gradient.
public enum Background: Sendable, Hashable {
    case color(NamedColor)
    case gradient(from: NamedColor, to: NamedColor, direction: GradientDirection)

    /// The color a host that draws one color uses (a status bar, a terminal box's border).
    public var dominantColor: NamedColor {
        switch self {
        case .color(let color): return color
        case .gradient(let from, _, _): return from
        }
    }
}

/// Which way a gradient runs.
public enum GradientDirection: String, Sendable, Hashable, CaseIterable {
    /// Top to bottom.
    case down
    /// Leading to trailing.
    case across
    /// Top leading to bottom trailing.
    case diagonal
}
