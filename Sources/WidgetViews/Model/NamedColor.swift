/// The colors a view may name: Apple's system colors, each with a light and a dark value, so every view follows the
/// color scheme by itself. There are no free-form colors: the HTML renderer draws every color through its stylesheet's
/// classes, so pages need no inline styles, and a strict Content-Security-Policy holds.
///
/// The values are Apple's "Increase Contrast" variants, darkened in the light scheme where that was still short, so
/// that text in any of them meets WCAG AA (4.5:1) on a widget's surface and on a host's page behind an accessory
/// widget, and white text meets it on the light value, which colored backgrounds use in both schemes.
public enum NamedColor: String, Sendable, Hashable, CaseIterable {
    case primary, secondary
    case red, orange, yellow, green, mint, teal, cyan, blue, indigo, purple, pink, brown, gray

    /// The color in a light scheme, `#RRGGBB` (or `rgba(...)` for `secondary`).
    public var light: String {
        switch self {
        case .primary: return "#000000"
        case .secondary: return "rgba(60,60,67,0.76)"
        case .red: return "#D40015"
        case .orange: return "#C63300"
        case .yellow: return "#AF4F00"
        case .green: return "#207A36"
        case .mint: return "#0B7872"
        case .teal: return "#00758A"
        case .cyan: return "#0071A4"
        case .blue: return "#0040DD"
        case .indigo: return "#3634A3"
        case .purple: return "#8944AB"
        case .pink: return "#CE0F43"
        case .brown: return "#7F6545"
        case .gray: return "#6B6B6F"
        }
    }

    /// The color in a dark scheme.
    public var dark: String {
        switch self {
        case .primary: return "#FFFFFF"
        case .secondary: return "rgba(235,235,245,0.6)"
        case .red: return "#FF6961"
        case .orange: return "#FFB340"
        case .yellow: return "#FFD426"
        case .green: return "#30DB5B"
        case .mint: return "#66D4CF"
        case .teal: return "#5DE6FF"
        case .cyan: return "#70D7FF"
        case .blue: return "#409CFF"
        case .indigo: return "#7D7AFF"
        case .purple: return "#DA8FFF"
        case .pink: return "#FF6482"
        case .brown: return "#B59469"
        case .gray: return "#AEAEB2"
        }
    }

    /// Whether the color is a label color (it follows the scheme as text does) rather than a hue.
    var isLabel: Bool { self == .primary || self == .secondary }

    /// The dark value as `#RRGGBB`, for status bars (which are dark more often than not); nil for the label colors,
    /// which a bar draws in its own.
    public var barHex: String? {
        switch self {
        case .primary, .secondary: return nil
        default: return dark
        }
    }

    /// The ANSI SGR parameters of the nearest terminal color; empty for `primary` (the terminal's own).
    public var ansi: String {
        switch self {
        case .primary: return ""
        case .secondary: return "2"
        case .red: return "31"
        case .orange, .brown: return "33"
        case .yellow: return "93"
        case .green: return "32"
        case .mint, .teal: return "36"
        case .cyan: return "96"
        case .blue: return "34"
        case .indigo: return "94"
        case .purple: return "35"
        case .pink: return "95"
        case .gray: return "90"
        }
    }
}
