import Foundation

/// What a date text says at a given moment, and when it next says something else: the rules every host follows, so a
/// page's script, a terminal and a status bar tick alike (docs/views.md writes them out for host scripts).
///
/// Times are whole milliseconds, so a text evaluated at the moment it was told to change does change: the moments
/// are exact, with no floating-point rounding on either side of a boundary.
public enum DateText {
    /// The largest magnitude of seconds since 1970 accepted (about the year 33 658); anything else is not a date here.
    static let secondsLimit = 1e12

    /// Milliseconds since 1970, or nil for a date out of range.
    public static func milliseconds(_ date: Date) -> Int64? {
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite, abs(seconds) <= secondsLimit else { return nil }
        return Int64((seconds * 1000).rounded(.toNearestOrAwayFromZero))
    }

    /// The date of a millisecond count.
    public static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// A `relative` text: `in 42 s`, `in 12 min`, `in 3 h 5 min`, `in 2 days`, `now`, `42 s ago`, `12 min ago`,
    /// `3 h 5 min ago`, `2 days ago`, with the moment it next changes.
    public static func relative(to date: Int64, now: Int64) -> (text: String, next: Int64) {
        let delta = date - now
        if delta > 0 {
            let seconds = (delta + 999) / 1000
            if seconds < 60 { return ("in \(seconds) s", date - (seconds - 1) * 1000) }
            let minutes = (seconds + 59) / 60
            if minutes < 60 { return ("in \(minutes) min", date - max(59, (minutes - 1) * 60) * 1000) }
            if minutes < 1440 { return ("in " + hoursAndMinutes(minutes), date - (minutes - 1) * 60_000) }
            let days = minutes / 1440
            return ("in " + daysText(days), date - (days * 1440 - 1) * 60_000)
        }
        let seconds = -delta / 1000
        if seconds == 0 { return ("now", date + 1000) }
        if seconds < 60 { return ("\(seconds) s ago", date + (seconds + 1) * 1000) }
        let minutes = seconds / 60
        if minutes < 60 { return ("\(minutes) min ago", date + (minutes + 1) * 60_000) }
        if minutes < 1440 { return (hoursAndMinutes(minutes) + " ago", date + (minutes + 1) * 60_000) }
        let days = minutes / 1440
        return (daysText(days) + " ago", date + (days + 1) * 86_400_000)
    }

    /// A `timer` text: the time left until `date` (rounded up, as a kitchen timer shows it), then the time since it,
    /// `m:ss` or `h:mm:ss`, with the moment it next changes (the next whole second).
    public static func timer(to date: Int64, now: Int64) -> (text: String, next: Int64) {
        let delta = date - now
        if delta > 0 {
            let seconds = (delta + 999) / 1000
            return (clock(seconds), date - (seconds - 1) * 1000)
        }
        let seconds = -delta / 1000
        return (clock(seconds), date + (seconds + 1) * 1000)
    }

    /// The next moment after `now` at which a clock showing `now` changes: the next whole second or minute.
    public static func nextTick(after now: Int64, seconds: Bool) -> Int64 {
        let unit: Int64 = seconds ? 1000 : 60_000
        return floorDivide(now, unit) * unit + unit
    }

    /// The next local midnight after `now`, for a `date` text of the current day.
    public static func nextMidnight(after now: Int64, offsetSeconds: Int) -> Int64 {
        let local = now + Int64(offsetSeconds) * 1000
        return (floorDivide(local, 86_400_000) + 1) * 86_400_000 - Int64(offsetSeconds) * 1000
    }

    /// `14:05` (`14:05:09`) at `milliseconds` in an offset of `offsetSeconds`.
    public static func time(_ milliseconds: Int64, offsetSeconds: Int, seconds: Bool) -> String {
        civil(milliseconds, offsetSeconds).time(seconds: seconds)
    }

    /// `Thu 26 Nov` (with the year when it is not the year of `now`).
    public static func day(_ milliseconds: Int64, now: Int64, offsetSeconds: Int) -> String {
        civil(milliseconds, offsetSeconds).day(currentYear: civil(now, offsetSeconds).year)
    }

    /// `Thu 26 Nov 14:05` (with the year when it is not the year of `now`).
    public static func dayAndTime(_ milliseconds: Int64, now: Int64, offsetSeconds: Int) -> String {
        let time = civil(milliseconds, offsetSeconds)
        return time.day(currentYear: civil(now, offsetSeconds).year) + " " + time.time(seconds: false)
    }

    private static func civil(_ milliseconds: Int64, _ offsetSeconds: Int) -> CivilTime {
        CivilTime(localSeconds: floorDivide(milliseconds, 1000) + Int64(offsetSeconds))
    }

    private static func hoursAndMinutes(_ minutes: Int64) -> String {
        let hours = minutes / 60
        let rest = minutes % 60
        return rest == 0 ? "\(hours) h" : "\(hours) h \(rest) min"
    }

    private static func daysText(_ days: Int64) -> String {
        days == 1 ? "1 day" : "\(days) days"
    }

    private static func clock(_ seconds: Int64) -> String {
        let hours = seconds / 3600
        let minutes = Int(seconds % 3600 / 60)
        let rest = Int(seconds % 60)
        if hours > 0 { return "\(hours):" + CivilTime.twoDigits(minutes) + ":" + CivilTime.twoDigits(rest) }
        return "\(minutes):" + CivilTime.twoDigits(rest)
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return value % divisor < 0 ? quotient - 1 : quotient
    }
}
