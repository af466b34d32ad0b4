import Foundation

/// Formats dates as RFC 3339 in UTC with a `Z`, with milliseconds only when the date has a fraction.
///
/// Creating an ISO8601DateFormatter is costly; keep one of these where many dates are formatted.
public final class RFC3339Formatter: @unchecked Sendable {
    // Each formatter is used by one thread at a time: its owner's.
    private let whole = ISO8601DateFormatter()
    private let fractional = ISO8601DateFormatter()

    public init() {
        whole.formatOptions = [.withInternetDateTime]
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    }

    public func string(from date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        return seconds.rounded() == seconds ? whole.string(from: date) : fractional.string(from: date)
    }

    /// Parses RFC 3339 with or without fractional seconds, with any offset.
    public func date(from text: String) -> Date? {
        whole.date(from: text) ?? fractional.date(from: text)
    }
}
