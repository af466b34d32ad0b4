import Foundation
import WidgetSchedulerCore

/// A value read back from the store that is outside what the service supports (`SupportedRange`): a damaged or
/// hand-edited row. It names the field and the value; the caller names the widget.
///
/// The store is checked as every other input is: a number read back becomes a deadline, a reply's date or a timer,
/// and one out of range would stop the process there (or at every restart) rather than here, with a reason.
struct StoredValueError: Error, CustomStringConvertible {
    var field: String
    var value: String
    var expected: String

    var description: String { "\(field) is \(value), not \(expected)" }

    /// `date`, if it is a supported date.
    static func date(_ date: Date, _ field: @autoclosure () -> String) throws -> Date {
        if let error = problem(date: date, field()) { throw error }
        return date
    }

    /// The error for `date` as `field`, or nil if it is a supported date.
    static func problem(date: Date, _ field: @autoclosure () -> String) -> StoredValueError? {
        guard !SupportedRange.contains(date: date) else { return nil }
        return StoredValueError(field: field(), value: "\(date.timeIntervalSince1970) s after 1970",
                                expected: SupportedRange.datesDescription)
    }

    /// `seconds`, if it is a monotonic clock reading the service could have stored.
    static func monotonic(_ seconds: Double, _ field: @autoclosure () -> String) throws -> Double {
        guard SupportedRange.contains(monotonic: seconds) else {
            throw StoredValueError(field: field(), value: "\(seconds)",
                                   expected: "a monotonic reading within ±\(SupportedRange.longestDuration) s")
        }
        return seconds
    }

    /// `relevance`, if its score and duration are supported.
    static func relevance(_ relevance: TimelineEntryRelevance, _ field: @autoclosure () -> String) throws
        -> TimelineEntryRelevance
    {
        guard SupportedRange.contains(score: relevance.score) else {
            throw StoredValueError(field: field() + ".score", value: "\(relevance.score)",
                                   expected: SupportedRange.scoresDescription)
        }
        guard SupportedRange.contains(duration: relevance.duration) else {
            throw StoredValueError(field: field() + ".duration", value: "\(relevance.duration)",
                                   expected: SupportedRange.durationsDescription)
        }
        return relevance
    }

    /// Checks a timeline's parts as stored: supported dates in strictly increasing order, supported relevances and
    /// a supported `after` date.
    static func timeline(dates: [Date], relevances: [TimelineEntryRelevance?], policy: ReloadPolicy) throws {
        for (index, date) in dates.enumerated() {
            _ = try Self.date(date, "entries[\(index)].date")
            if index > 0, !(dates[index - 1] < date) {
                throw StoredValueError(field: "entries[\(index)].date", value: RFC3339.string(from: date),
                                       expected: "a date after entries[\(index - 1)].date")
            }
        }
        for (index, relevance) in relevances.enumerated() {
            if let relevance { _ = try Self.relevance(relevance, "entries[\(index)].relevance") }
        }
        if case .after(let date) = policy { _ = try Self.date(date, "policy.after") }
    }
}
