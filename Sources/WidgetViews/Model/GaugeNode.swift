/// `gauge` (a ring, as SwiftUI's `Gauge` in `accessoryCircularCapacity` style) or `progress` (a bar, as a linear
/// `ProgressView`): where a value sits between a minimum and a maximum.
public struct GaugeNode: Sendable, Hashable {
    /// A ring or a bar.
    public enum Style: Sendable, Hashable {
        case circular, linear
    }

    public var style: Style
    public var value: NumberSource
    public var minimum: NumberSource
    public var maximum: NumberSource
    /// Words beside the gauge (`Load`).
    public var label: String?
    /// How the value is written inside a ring or after a bar; nil writes it plainly. A bar without a format shows no
    /// value.
    public var format: TextFormat?
    public var color: NamedColor?

    public init(
        style: Style, value: NumberSource, minimum: NumberSource = .literal(0), maximum: NumberSource = .literal(1),
        label: String? = nil, format: TextFormat? = nil, color: NamedColor? = nil
    ) {
        self.style = style
        self.value = value
        self.minimum = minimum
        self.maximum = maximum
        self.label = label
        self.format = format
        self.color = color
    }
}

/// A number written in the view, or read from the content.
public enum NumberSource: Sendable, Hashable {
    case literal(Double)
    case path(ContentPath)
}
