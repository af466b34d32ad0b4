import Foundation

/// RFC 3339 dates as the provider protocol writes them.
enum ProtocolDate {
    /// The dates the protocol carries, 1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z: the daemon refuses an
    /// answer with a date outside them (the SDK depends on nothing, so it holds its own copy of the bounds).
    static let supported = Date(timeIntervalSince1970: 0)...Date(timeIntervalSince1970: 253_402_300_799.999)
    /// "from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z".
    static let supportedDescription = "from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z"
    /// The longest duration the protocol carries, in seconds: the span of `supported`.
    static let longestDuration = 253_402_300_799.999

    static func parse(_ text: String) -> Date? {
        let withFraction = ISO8601DateFormatter()
        withFraction.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = withFraction.date(from: text) { return date }
        let whole = ISO8601DateFormatter()
        whole.formatOptions = [.withInternetDateTime]
        return whole.date(from: text)
    }

    static func string(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        let hasFraction = date.timeIntervalSince1970.rounded(.down) != date.timeIntervalSince1970
        formatter.formatOptions = [.withInternetDateTime]
        if hasFraction { formatter.formatOptions.insert(.withFractionalSeconds) }
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}
