/// The sizes a widget comes in, with WidgetKit's names.
///
/// A host draws each family at its real proportions: the point sizes are those of a 430×932 pt iPhone (Apple's Human
/// Interface Guidelines, "Widgets"), and the terminal grid is the nearest fit in character cells, which are about twice
/// as tall as they are wide.
public enum WidgetFamily: String, Sendable, Hashable, CaseIterable, Comparable {
    case systemSmall, systemMedium, systemLarge, systemExtraLarge
    case accessoryCircular, accessoryRectangular, accessoryInline

    /// Width and height in points (CSS pixels in the HTML renderer).
    public var pointSize: (width: Int, height: Int) {
        switch self {
        case .systemSmall: return (170, 170)
        case .systemMedium: return (364, 170)
        case .systemLarge: return (364, 382)
        case .systemExtraLarge: return (744, 382)
        case .accessoryCircular: return (76, 76)
        case .accessoryRectangular: return (172, 76)
        case .accessoryInline: return (257, 26)
        }
    }

    /// Columns and rows inside the terminal box (the border excluded, the widget's padding included).
    public var textGrid: (columns: Int, rows: Int) {
        switch self {
        case .systemSmall: return (22, 10)
        case .systemMedium: return (46, 10)
        case .systemLarge: return (46, 21)
        case .systemExtraLarge: return (94, 21)
        case .accessoryCircular: return (9, 4)
        case .accessoryRectangular: return (22, 4)
        case .accessoryInline: return (40, 1)
        }
    }

    /// Whether a `link` element answers taps. `systemSmall` answers only the widget's `url` (WidgetKit's
    /// `widgetURL`), and so do the Lock Screen's accessory families.
    public var answersLinks: Bool {
        switch self {
        case .systemMedium, .systemLarge, .systemExtraLarge: return true
        case .systemSmall, .accessoryCircular, .accessoryRectangular, .accessoryInline: return false
        }
    }

    /// Whether the family is one line of text.
    public var isInline: Bool { self == .accessoryInline }

    /// Whether the family is a Lock Screen accessory (drawn without a background of its own).
    public var isAccessory: Bool { rawValue.hasPrefix("accessory") }

    public static func < (lhs: WidgetFamily, rhs: WidgetFamily) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}
