import Foundation

/// RFC 3339 dates as the provider protocol writes them.
enum ProtocolDate {
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
