import Foundation

/// Strict RFC 3339 date-times: the one date form of the provider protocol, the control API, scenarios and logs
/// (hand-written, so the daemon parses a thousand entry dates without a formatter and rejects every non-RFC 3339
/// form that ISO 8601 styles let through).
///
/// Parsing accepts what RFC 3339 §5.6 allows: `2026-01-05T08:00:00Z`, fractional seconds (`08:00:00.250Z`) and
/// numeric offsets (`08:00:00+02:00`); `T`/`Z` may be lowercase. It rejects anything else, including dates without a
/// time or an offset, and impossible fields such as February 30. Formatting always writes UTC with `Z`.
public enum RFC3339 {
    /// Parses `text`, or returns nil if it is not an RFC 3339 date-time.
    public static func date(from text: String) -> Date? {
        var text = text
        return text.withUTF8 { date(utf8: $0) }
    }

    /// Parses the UTF-8 in `utf8`, or returns nil if it is not an RFC 3339 date-time: for decoders that hold the
    /// bytes, which need not make a String of them.
    public static func date(utf8: UnsafeBufferPointer<UInt8>) -> Date? {
        var reader = Reader(bytes: utf8)
        guard let year = reader.digits(4), reader.expect("-"),
              let month = reader.digits(2), reader.expect("-"),
              let day = reader.digits(2), reader.expect("T", or: "t"),
              let hour = reader.digits(2), reader.expect(":"),
              let minute = reader.digits(2), reader.expect(":"),
              let second = reader.digits(2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour <= 23, minute <= 59, second <= 60
        else { return nil }
        var fraction = 0.0
        if reader.expect(".") {
            var scale = 0.1
            var count = 0
            while let digit = reader.digit() {
                fraction += Double(digit) * scale
                scale /= 10
                count += 1
            }
            guard count > 0 else { return nil }
        }
        var offsetSeconds = 0
        if reader.expect("Z", or: "z") {
            offsetSeconds = 0
        } else if let sign = reader.sign() {
            guard let offsetHours = reader.digits(2), reader.expect(":"), let offsetMinutes = reader.digits(2),
                  offsetHours <= 23, offsetMinutes <= 59
            else { return nil }
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        } else {
            return nil
        }
        guard reader.atEnd else { return nil }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// `date` in UTC with `Z`: whole seconds when the date has no fraction, else milliseconds
    /// (`2026-01-05T08:00:00Z`, `2026-01-05T08:00:00.250Z`).
    public static func string(from date: Date) -> String {
        let fields = Fields(date)
        guard (0...9999).contains(fields.year) else { return outOfRangeString(fields) }
        return String(unsafeUninitializedCapacity: maximumUTF8Count) { write(fields, into: $0) }
    }

    /// Appends `string(from: date)`'s UTF-8 to `bytes` without making a String: for encoders that write many dates.
    public static func append(_ date: Date, to bytes: inout [UInt8]) {
        let fields = Fields(date)
        guard (0...9999).contains(fields.year) else {
            bytes.append(contentsOf: outOfRangeString(fields).utf8)
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumUTF8Count) { buffer in
            let count = write(fields, into: buffer)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<count]))
        }
    }

    /// `YYYY-MM-DDThh:mm:ss.sssZ`.
    private static let maximumUTF8Count = 24

    /// The greatest distance from the epoch, in seconds, that the formatter writes (about 3 million years); a
    /// supported date (`SupportedRange`) is far within it.
    static let writableSeconds = 1e14

    /// A date's calendar fields in UTC, to the millisecond.
    private struct Fields {
        var year, month, day, secondOfDay, millisecond: Int

        init(_ date: Date) {
            // A date beyond what the fields can hold, or NaN, is written as the nearest one they hold (NaN as the
            // epoch): formatting is for a reply or a log line, and must not stop the process whatever the date.
            let seconds = date.timeIntervalSince1970
            let held = seconds.isNaN ? 0 : min(max(seconds, -RFC3339.writableSeconds), RFC3339.writableSeconds)
            var milliseconds = Int64((held * 1000).rounded())
            millisecond = Int(((milliseconds % 1000) + 1000) % 1000)
            milliseconds -= Int64(millisecond)
            let totalSeconds = milliseconds / 1000
            let days = Int(RFC3339.floorDivide(totalSeconds, 86_400))
            secondOfDay = Int(totalSeconds - Int64(days) * 86_400)
            (year, month, day) = RFC3339.civil(fromDays: days)
        }
    }

    // Digits written into a fixed buffer: this runs once per decision of a `Reload` reply and per journal field, where
    // string concatenation would allocate for every part. Returns the count written; the year must have 4 digits.
    private static func write(_ fields: Fields, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var index = 0
        func put(_ value: Int, _ width: Int) {
            var value = value
            var position = index + width - 1
            while position >= index {
                buffer[position] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
                position -= 1
            }
            index += width
        }
        func put(_ character: Unicode.Scalar) {
            buffer[index] = UInt8(ascii: character)
            index += 1
        }
        let second = fields.secondOfDay
        put(fields.year, 4); put("-"); put(fields.month, 2); put("-"); put(fields.day, 2); put("T")
        put(second / 3600, 2); put(":"); put(second % 3600 / 60, 2); put(":"); put(second % 60, 2)
        if fields.millisecond != 0 { put("."); put(fields.millisecond, 3) }
        put("Z")
        return index
    }

    // Years before 0 or after 9999 (not RFC 3339 proper, but a date can hold them): as many digits as they need.
    private static func outOfRangeString(_ fields: Fields) -> String {
        let second = fields.secondOfDay
        var text = pad(fields.year, 4) + "-" + pad(fields.month, 2) + "-" + pad(fields.day, 2) + "T"
        text += pad(second / 3600, 2) + ":" + pad(second % 3600 / 60, 2) + ":" + pad(second % 60, 2)
        if fields.millisecond != 0 { text += "." + pad(fields.millisecond, 3) }
        return text + "Z"
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value.magnitude)
        let padded = digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
        return value < 0 ? "-" + padded : padded
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    }

    private static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    // Howard Hinnant's days-from-civil and civil-from-days algorithms (proleptic Gregorian calendar).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The (year, month, day) of `days` since 1970-01-01, in the proleptic Gregorian calendar (also for the view
    /// renderers' dates, so the calendar is written once).
    public static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        var atEnd: Bool { position == bytes.count }

        mutating func digit() -> Int? {
            guard position < bytes.count, bytes[position] >= 48, bytes[position] <= 57 else { return nil }
            defer { position += 1 }
            return Int(bytes[position] - 48)
        }

        mutating func digits(_ count: Int) -> Int? {
            var value = 0
            for _ in 0..<count {
                guard let digit = digit() else { return nil }
                value = value * 10 + digit
            }
            return value
        }

        mutating func expect(_ character: Unicode.Scalar, or alternative: Unicode.Scalar? = nil) -> Bool {
            guard position < bytes.count else { return false }
            let byte = bytes[position]
            guard byte == UInt8(ascii: character) || alternative.map({ byte == UInt8(ascii: $0) }) == true else {
                return false
            }
            position += 1
            return true
        }

        mutating func sign() -> Int? {
            if expect("+") { return 1 }
            if expect("-") { return -1 }
            return nil
        }
    }
}
