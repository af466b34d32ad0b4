import Foundation
import WidgetSchedulerCore

/// Appends JSON text to a byte buffer: what `JSONObjectEncodable` types write with. Strings are escaped as
/// `JSONEncoder` does with `.withoutEscapingSlashes`: `"` and `\` escaped, the usual short escapes for control
/// characters and `\u00XX` for the rest of them, everything else (UTF-8 included) copied.
public struct JSONBytesWriter {
    /// The text written so far.
    public private(set) var bytes: [UInt8] = []
    /// The whole second of the last date written and its first 19 characters (`2026-01-05T08:00:00`): a reply's
    /// dates mostly share their second (10 000 deferrals to the same floor), and formatting was a sixth of a
    /// `Reload` of a kind.
    private var cachedSecond = Int64.min
    private var cachedPrefix: [UInt8] = []

    public init(reservingCapacity capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// Appends text as it is: punctuation, keys known to need no escaping, numbers already formatted.
    public mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends `date` as an RFC 3339 JSON string, quotes included (as `VarlinkCoding` encodes dates).
    public mutating func date(_ date: Date) {
        bytes.append(UInt8(ascii: "\""))
        // The same rounding as RFC3339's formatting: to the millisecond, then split into second and fraction.
        let total = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let millisecond = ((total % 1000) + 1000) % 1000
        let second = (total - millisecond) / 1000
        if second == cachedSecond {
            bytes.append(contentsOf: cachedPrefix)
            if millisecond != 0 {
                bytes.append(UInt8(ascii: "."))
                bytes.append(UInt8(ascii: "0") + UInt8(millisecond / 100))
                bytes.append(UInt8(ascii: "0") + UInt8(millisecond / 10 % 10))
                bytes.append(UInt8(ascii: "0") + UInt8(millisecond % 10))
            }
            bytes.append(UInt8(ascii: "Z"))
        } else {
            let start = bytes.count
            RFC3339.append(date, to: &bytes)
            // Only the fixed-width form (a four-digit year) is cached.
            if bytes.count - start >= 20,
               bytes[start + 19] == UInt8(ascii: ".") || bytes[start + 19] == UInt8(ascii: "Z") {
                cachedSecond = second
                cachedPrefix = Array(bytes[start..<start + 19])
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends `date`, or null.
    public mutating func date(_ date: Date?) {
        if let date { self.date(date) } else { raw("null") }
    }

    /// Appends `text` as a JSON string, or null.
    public mutating func string(_ text: String?) {
        if let text { string(text) } else { raw("null") }
    }

    /// Appends a number as `JSONEncoder` writes a Double: the shortest text that reads back the same, without a
    /// trailing `.0`.
    public mutating func number(_ value: Double) {
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    /// Appends any JSON value, object keys sorted as `VarlinkCoding` sorts them.
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: raw("null")
        case .bool(let flag): flag ? raw("true") : raw("false")
        case .integer(let number): bytes.append(contentsOf: String(number).utf8)
        case .number(let number): self.number(number)
        case .string(let text): string(text)
        case .array(let items):
            raw("[")
            for (index, item) in items.enumerated() {
                if index > 0 { raw(",") }
                self.value(item)
            }
            raw("]")
        case .object(let members):
            object(members)
        }
    }

    /// Appends an object of JSON values, keys sorted.
    public mutating func object(_ members: [String: JSONValue]) {
        raw("{")
        for (index, key) in members.keys.sorted(by: Self.keyOrder).enumerated() {
            if index > 0 { raw(",") }
            string(key)
            raw(":")
            value(members[key]!)
        }
        raw("}")
    }

    /// The order `JSONEncoder`'s `.sortedKeys` gives.
    static func keyOrder(_ lhs: String, _ rhs: String) -> Bool {
        lhs < rhs
    }

    /// Appends `text` as a JSON string, quotes included.
    public mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var start = 0
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == 0x22 || byte == 0x5C {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                escape(byte)
                start = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func escape(_ byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case 0x22: bytes.append(UInt8(ascii: "\""))
        case 0x5C: bytes.append(UInt8(ascii: "\\"))
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            let hex: [UInt8] = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)],
                                      hex[Int(byte & 0x0F)]])
        }
    }
}
