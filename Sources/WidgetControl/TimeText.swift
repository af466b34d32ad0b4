import Foundation
import WidgetProtocol

/// Dates for people: absolute in the local time zone, and relative to now ("in 4min", "3min ago"), in the forms
/// `systemctl list-timers` uses for its table.
public struct TimeText: Sendable {
    public var now: Date
    public var timeZone: TimeZone

    public init(now: Date = Date(), timeZone: TimeZone = .current) {
        self.now = now
        self.timeZone = timeZone
    }

    private func format(_ date: Date, _ pattern: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = pattern
        return formatter.string(from: date)
    }

    /// `Sun 2026-11-22 10:42:07 UTC`, as `systemctl list-timers` shows NEXT and LAST.
    public func full(_ date: Date) -> String {
        format(date, "EEE yyyy-MM-dd HH:mm:ss") + " " + zoneName(date)
    }

    /// The zone's abbreviation, with UTC called UTC (Foundation names it GMT, even for TZ=UTC), as systemd does.
    private func zoneName(_ date: Date) -> String {
        let utcNames: Set<String> = [
            "UTC", "GMT", "Etc/UTC", "Etc/GMT", "Etc/Universal", "Universal", "Zulu", "Etc/Zulu",
        ]
        if utcNames.contains(timeZone.identifier) { return "UTC" }
        return timeZone.abbreviation(for: date) ?? timeZone.identifier
    }

    /// `10:42:07` for today, `2026-11-23 10:42:07` for another day.
    public func clock(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        if calendar.isDate(date, inSameDayAs: now) { return format(date, "HH:mm:ss") }
        return format(date, "yyyy-MM-dd HH:mm:ss")
    }

    /// A span as systemd writes it: `4min 3s`, `1h 2min`, `2 days 3h`, `250ms` (`TimeSpan`).
    public static func span(_ seconds: Double) -> String {
        TimeSpan.text(seconds)
    }

    /// `in 4min 3s`, `3min ago`, or `now` within half a second (`TimeSpan`).
    public func relative(_ date: Date) -> String {
        TimeSpan.relative(date.timeIntervalSince(now))
    }

    /// `10:42:07 (in 4min 3s)`.
    public func clockAndRelative(_ date: Date) -> String {
        clock(date) + " (" + relative(date) + ")"
    }

    /// LEFT of `list`: the span until `date`, `-` when absent, `overdue` when it passed.
    public func left(_ date: Date?) -> String {
        guard let date else { return "-" }
        let delta = date.timeIntervalSince(now)
        return delta >= 0 ? Self.span(delta) : "overdue"
    }

    /// PASSED of `list`: `56s ago`, `-` when absent.
    public func passed(_ date: Date?) -> String {
        guard let date else { return "-" }
        return Self.span(now.timeIntervalSince(date)) + " ago"
    }
}
