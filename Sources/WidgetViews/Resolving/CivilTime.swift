import WidgetSchedulerCore

/// A calendar date and a time of day, from seconds since 1970 in some offset: the arithmetic of `RFC3339`, so a
/// thousand dates cost no formatter.
struct CivilTime: Hashable {
    var year: Int64
    var month: Int
    var day: Int
    var hour: Int
    var minute: Int
    var second: Int
    /// 0 is Sunday.
    var weekday: Int

    static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The civil time of `seconds` since 1970-01-01T00:00:00 in the local offset (seconds already shifted).
    init(localSeconds seconds: Int64) {
        var days = seconds / 86_400
        var rest = seconds % 86_400
        if rest < 0 {
            rest += 86_400
            days -= 1
        }
        hour = Int(rest / 3600)
        minute = Int(rest % 3600 / 60)
        second = Int(rest % 60)
        // 1970-01-01 was a Thursday.
        weekday = Int(((days % 7) + 11) % 7)
        // DateText keeps dates within about ±30 000 years, so the day count fits an Int everywhere.
        let date = RFC3339.civil(fromDays: Int(days))
        year = Int64(date.year)
        month = date.month
        day = date.day
    }

    /// `14:05` or `14:05:09`.
    func time(seconds showsSeconds: Bool) -> String {
        var text = Self.twoDigits(hour) + ":" + Self.twoDigits(minute)
        if showsSeconds { text += ":" + Self.twoDigits(second) }
        return text
    }

    /// `Thu 26 Nov`, and ` 2027` when the year is not `currentYear`.
    func day(currentYear: Int64) -> String {
        var text = Self.weekdayNames[weekday] + " " + String(day) + " " + Self.monthNames[month - 1]
        if year != currentYear { text += " " + String(year) }
        return text
    }

    static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0" + String(value) : String(value)
    }
}
