import Foundation

/// The dates, durations and relevance scores the service supports: every number from outside (a provider's answer,
/// a control call, a scenario, a stored row, a setting) is checked against these where it enters, before it becomes
/// a date or a duration, so nothing derived from it can overflow a conversion further on.
///
/// Dates run from the Unix epoch to the last instant a four-digit RFC 3339 year can write; durations from 0 to the
/// span between them, so a supported date plus a supported duration is still a small `Double`, and
/// `clamped(_:)` brings it back within the dates. Scores are WidgetKit's `Float`.
public enum SupportedRange {
    /// 1970-01-01T00:00:00Z.
    public static let earliestDate = Date(timeIntervalSince1970: 0)
    /// 9999-12-31T23:59:59.999Z: the latest instant RFC 3339 can write (to the millisecond the service writes).
    public static let latestDate = Date(timeIntervalSince1970: 253_402_300_799.999)
    /// Every supported date.
    public static let dates = earliestDate...latestDate
    private static let earliestSeconds = earliestDate.timeIntervalSince1970
    private static let latestSeconds = latestDate.timeIntervalSince1970
    /// The longest supported duration, in seconds: the span of `dates` (about 8 030 years).
    public static let longestDuration = latestDate.timeIntervalSince(earliestDate)
    /// Every supported duration, in seconds.
    public static let durations = 0...longestDuration
    /// The greatest magnitude of a relevance score: WidgetKit's score is a `Float`.
    public static let greatestScore = Double(Float.greatestFiniteMagnitude)

    /// Whether `date` is a supported date (false for a NaN or infinite one).
    public static func contains(date: Date) -> Bool {
        // On the seconds: `Date`'s `<=` is `!(>)`, which a NaN date passes.
        let seconds = date.timeIntervalSince1970
        return seconds >= earliestSeconds && seconds <= latestSeconds
    }

    /// Whether `seconds` is a supported duration (false for NaN, infinities and negative values).
    public static func contains(duration seconds: Double) -> Bool {
        durations.contains(seconds)
    }

    /// Whether `score` is a supported relevance score: finite, and within a `Float`'s range.
    public static func contains(score: Double) -> Bool {
        score.isFinite && abs(score) <= greatestScore
    }

    /// Whether `seconds` is a plausible monotonic clock reading as the service stores them: finite and within the
    /// longest duration of 0 (readings are moved back across reboots, so they may be negative).
    public static func contains(monotonic seconds: Double) -> Bool {
        seconds.isFinite && abs(seconds) <= longestDuration
    }

    /// `date` held within `dates`: for a date derived from supported ones (an entry's date plus its relevance's
    /// duration), which may pass the end. A NaN date becomes the latest.
    public static func clamped(_ date: Date) -> Date {
        let seconds = date.timeIntervalSince1970
        if seconds < earliestSeconds { return earliestDate }
        if seconds <= latestSeconds { return date }
        return latestDate
    }

    /// "from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z", for errors about a date out of range.
    public static let datesDescription = "a date from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z"

    /// "a number of seconds from 0 to 253402300799.999", for errors about a duration out of range.
    public static let durationsDescription = "a number of seconds from 0 to 253402300799.999"

    /// "a finite number within ±3.4028235e+38", for errors about a relevance score out of range.
    public static let scoresDescription = "a finite number within ±\(Float.greatestFiniteMagnitude)"
}
