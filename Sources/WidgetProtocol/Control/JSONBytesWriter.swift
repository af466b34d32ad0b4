import Foundation
import WidgetSchedulerCore

/// Appends JSON text to a byte buffer: what `JSONObjectEncodable` types write with. Strings are escaped as
/// `JSONEncoder` does with `.withoutEscapingSlashes`: `"` and `\` escaped, the usual short escapes for control
/// characters and `\u00XX` for the rest of them, everything else (UTF-8 included) copied.
public struct JSONBytesWriter: JSONByteSink {
    /// The text written so far.
    public private(set) var bytes: [UInt8] = []
    var cachedSecond = Int64.min
    var cachedPrefix = InlineArray<19, UInt8>(repeating: 0)

    public init(reservingCapacity capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    mutating func put(_ byte: UInt8) {
        bytes.append(byte)
    }

    mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes.append(contentsOf: bytes)
    }

    mutating func putFullDate(_ date: Date, second: Int64) {
        let start = bytes.count
        RFC3339.append(date, to: &bytes)
        cachePrefix(of: bytes[start...], second: second)
    }

    /// Appends text as it is: punctuation, keys known to need no escaping, numbers already formatted.
    public mutating func raw(_ text: StaticString) {
        putRaw(text)
    }

    /// Appends JSON text that is already in `JSONValue.jsonText()`'s form, as it is.
    public mutating func canonicalJSON(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends `date` as an RFC 3339 JSON string, quotes included (as `VarlinkCoding` encodes dates).
    public mutating func date(_ date: Date) {
        putDate(date)
    }

    /// Appends what `body` writes through a cursor into memory of at most `maximum` bytes, in one copy: for the
    /// per-element loops of large replies, where an append per piece was most of their encoding.
    public mutating func appendWritten(atMost maximum: Int, _ body: (inout JSONByteCursor) -> Void) {
        let written = [UInt8](unsafeUninitializedCapacity: maximum) { buffer, count in
            count = 0
            guard let start = buffer.baseAddress else { return }
            var cursor = JSONByteCursor(start: start, capacity: maximum)
            body(&cursor)
            count = cursor.count
        }
        bytes.append(contentsOf: written)
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

    /// Appends `value`'s decimal digits, as `String(value)` writes them, without making the String: every request
    /// to a provider carries its protocol version as one.
    public mutating func integer(_ value: Int64) {
        if value < 0 { raw("-") }
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// Appends any JSON value, object keys sorted as `VarlinkCoding` sorts them.
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: raw("null")
        case .bool(let flag): flag ? raw("true") : raw("false")
        case .integer(let number): integer(number)
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
        putString(text)
    }
}
