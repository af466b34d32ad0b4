/// A count with its noun in the right number, for text people read: "1 option", "3 options", "0 entries".
public enum Counted {
    /// `count` and `singular`, or `plural` (default: `singular` + "s") when the count is not 1.
    public static func phrase(_ count: Int, _ singular: String, plural: String? = nil) -> String {
        "\(count) " + (count == 1 ? singular : plural ?? singular + "s")
    }
}
