/// Numbers as text, written by hand: a formatter per number would cost more than the rest of a widget's rendering, and
/// every number comes from a provider, so each is range-checked before any conversion (nothing here can trap).
public enum NumberText {
    /// The largest magnitude written digit by digit; larger numbers are written in Swift's exponent form.
    static let digitLimit = 1e15

    /// `21`, `21.5`, `1e+20`: integers without a fraction, other numbers as Swift writes them.
    public static func plain(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        if value == value.rounded(), abs(value) < digitLimit { return String(Int64(value)) }
        return "\(value)"
    }

    /// `value` with `decimals` fixed, or (nil) integers as they are and other numbers to at most 2 decimals without
    /// trailing zeros; thousands separated by commas when `grouping`.
    public static func format(_ value: JSONNumber, decimals: Int?, grouping: Bool) -> String {
        switch value {
        case .integer(let integer) where decimals == nil || decimals == 0:
            return grouped(integer.magnitude, negative: integer < 0, grouping: grouping)
        case .integer(let integer):
            return fixed(Double(integer), decimals: decimals ?? 0, trim: false, grouping: grouping)
        case .number(let number):
            return fixed(number, decimals: decimals ?? 2, trim: decimals == nil, grouping: grouping)
        }
    }

    /// `value` rounded to `decimals` (half away from zero), trailing zeros dropped when `trim`.
    static func fixed(_ value: Double, decimals: Int, trim: Bool, grouping: Bool) -> String {
        let decimals = min(max(decimals, 0), 6)
        guard value.isFinite else { return plain(value) }
        var scale: Int64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * Double(scale)).rounded(.toNearestOrAwayFromZero)
        guard scaled < digitLimit else { return plain(value) }
        let units = Int64(scaled)
        let whole = UInt64(units / scale)
        var fraction = units % scale
        var digits = decimals
        if trim {
            while digits > 0 && fraction % 10 == 0 {
                fraction /= 10
                digits -= 1
            }
        }
        var text = grouped(whole, negative: value < 0 && units != 0, grouping: grouping)
        if digits > 0 {
            let fractionText = String(fraction)
            text += "." + String(repeating: "0", count: digits - fractionText.count) + fractionText
        }
        return text
    }

    private static func grouped(_ magnitude: UInt64, negative: Bool, grouping: Bool) -> String {
        let digits = String(magnitude)
        guard grouping, digits.count > 3 else { return negative ? "-" + digits : digits }
        var text = negative ? "-" : ""
        for (offset, character) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { text.append(",") }
            text.append(character)
        }
        return text
    }

    /// A number of seconds as a span of at most two units: `3 d 4 h`, `4 h 12 min`, `12 min`, `45 s`.
    public static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite, abs(seconds) < 1e12 else { return plain(seconds) + " s" }
        var left = Int64(abs(seconds).rounded(.toNearestOrAwayFromZero))
        let sign = seconds < 0 && left > 0 ? "-" : ""
        if left < 60 { return sign + "\(left) s" }
        var parts: [String] = []
        for (unit, size) in [("d", Int64(86_400)), ("h", 3_600), ("min", 60), ("s", 1)]
        where left >= size && parts.count < 2 {
            parts.append("\(left / size) \(unit)")
            left %= size
            if parts.count == 1 && left < 60 && size > 60 { break }
        }
        return sign + parts.joined(separator: " ")
    }
}

/// A JSON number as it was written: an integer, or any other number.
public enum JSONNumber: Sendable, Hashable {
    case integer(Int64)
    case number(Double)

    public var double: Double {
        switch self {
        case .integer(let value): return Double(value)
        case .number(let value): return value
        }
    }
}
