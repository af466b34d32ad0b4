/// The colors a view may name: Apple's system colors, each with a light and a dark value, so every view follows the
/// color scheme by itself. There are no free-form colors: the HTML renderer draws every color through its stylesheet's
/// classes, so pages need no inline styles, and a strict Content-Security-Policy holds.
public enum NamedColor: String, Sendable, Hashable, CaseIterable {
    case primary, secondary
    case red, orange, yellow, green, mint, teal, cyan, blue, indigo, purple, pink, brown, gray

    /// The color in a light scheme, `#RRGGBB` (or `rgba(...)` for `secondary`).
    public var light: String {
        switch self {
        case .primary: return "#000000"
        case .secondary: return "rgba(60,60,67,0.6)"
        case .red: return "#FF3B30"
        case .orange: return "#FF9500"
        case .yellow: return "#FFCC00"
        case .green: return "#34C759"
        case .mint: return "#00C7BE"
        case .teal: return "#30B0C7"
        case .cyan: return "#32ADE6"
        case .blue: return "#007AFF"
        case .indigo: return "#5856D6"
        case .purple: return "#AF52DE"
        case .pink: return "#FF2D55"
        case .brown: return "#A2845E"
        case .gray: return "#8E8E93"
        }
    }

    /// The color in a dark scheme.
    public var dark: String {
        switch self {
        case .primary: return "#FFFFFF"
        case .secondary: return "rgba(235,235,245,0.6)"
        case .red: return "#FF453A"
        case .orange: return "#FF9F0A"
        case .yellow: return "#FFD60A"
        case .green: return "#30D158"
        case .mint: return "#63E6E2"
        case .teal: return "#40C8E0"
        case .cyan: return "#64D2FF"
        case .blue: return "#0A84FF"
        case .indigo: return "#5E5CE6"
        case .purple: return "#BF5AF2"
        case .pink: return "#FF375F"
        case .brown: return "#AC8E68"
        case .gray: return "#8E8E93"
        }
    }

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
