import Foundation

/// RFC 3339 dates, the only date form on the control wire: UTC with a `Z`, and milliseconds only when the date has
/// them (`2026-11-22T10:42:07Z`, `2026-11-22T10:42:07.250Z`). Parsing also accepts numeric offsets (`+02:00`).
public enum RFC3339 {
    /// The date as RFC 3339 text in UTC.
    public static func string(from date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        let whole = seconds.rounded(.down)
        let milliseconds = Int(((seconds - whole) * 1000).rounded())
        if milliseconds == 0 || milliseconds == 1000 {
            return Date(timeIntervalSince1970: milliseconds == 1000 ? whole + 1 : whole)
                .formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: false))
        }
        return date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// The date named by RFC 3339 text, or nil if the text is not one.
    public static func date(from text: String) -> Date? {
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: false).parse(text) { return date }
        return try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)
    }
}
