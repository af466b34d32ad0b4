/// A widget's size class, as WidgetKit's `WidgetFamily`. Hosts may define families of their own, so any name is
/// accepted; the WidgetKit names are provided as constants.
public struct WidgetFamily: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public var rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public static let systemSmall = WidgetFamily(rawValue: "systemSmall")
    public static let systemMedium = WidgetFamily(rawValue: "systemMedium")
    public static let systemLarge = WidgetFamily(rawValue: "systemLarge")
    public static let systemExtraLarge = WidgetFamily(rawValue: "systemExtraLarge")
    public static let accessoryCircular = WidgetFamily(rawValue: "accessoryCircular")
    public static let accessoryRectangular = WidgetFamily(rawValue: "accessoryRectangular")
    public static let accessoryInline = WidgetFamily(rawValue: "accessoryInline")

    public var description: String { rawValue }
}
