import Foundation
import WidgetSchedulerCore

/// Where JSON text goes, a byte or a run of bytes at a time: `JSONBytesWriter` (a growing array) and `JSONByteCursor`
/// (memory bounded up front). The texts themselves (dates, escaped strings) are written here, once for both.
protocol JSONByteSink {
    mutating func put(_ byte: UInt8)
    mutating func put(_ bytes: UnsafeBufferPointer<UInt8>)
    /// The whole second of the last date written in full and its first 19 characters (`2026-01-05T08:00:00`): a
    /// reply's dates mostly share their second (10 000 deferrals to the same floor). Held inline: most objects (a
    /// Watch event) write one date, and an array for the prefix cost each of them an allocation never used again.
    var cachedSecond: Int64 { get set }
    var cachedPrefix: InlineArray<19, UInt8> { get set }
    /// Puts `RFC3339.append(date)`'s text, and caches its first 19 characters for `second` when it has the fixed
    /// width (a four-digit year): `putDate` without the cache.
    mutating func putFullDate(_ date: Date, second: Int64)
}

extension JSONByteSink {
    /// Text as it is: punctuation, keys known to need no escaping.
    mutating func putRaw(_ text: StaticString) {
        text.withUTF8Buffer { put($0) }
    }

    /// `date` as an RFC 3339 JSON string, quotes included (as `VarlinkCoding` encodes dates), held within
    /// `SupportedRange.dates` as `VarlinkCoding` holds it.
    mutating func putDate(_ date: Date) {
        let date = SupportedRange.clamped(date)
        put(UInt8(ascii: "\""))
        // The same rounding as RFC3339's formatting: to the millisecond, then split into second and fraction.
        let total = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let millisecond = ((total % 1000) + 1000) % 1000
        let second = (total - millisecond) / 1000
        if second == cachedSecond {
            let prefix = cachedPrefix
            prefix.span.withUnsafeBufferPointer { put($0) }
            if millisecond != 0 {
                put(UInt8(ascii: "."))
                put(UInt8(ascii: "0") + UInt8(millisecond / 100))
                put(UInt8(ascii: "0") + UInt8(millisecond / 10 % 10))
                put(UInt8(ascii: "0") + UInt8(millisecond % 10))
            }
            put(UInt8(ascii: "Z"))
        } else {
            putFullDate(date, second: second)
        }
        put(UInt8(ascii: "\""))
    }

    /// Caches `text`'s first 19 characters for `second` if it is a whole RFC 3339 date of the fixed width.
    mutating func cachePrefix<Text: RandomAccessCollection<UInt8>>(of text: Text, second: Int64)
    where Text.Index == Int {
        let start = text.startIndex
        guard text.count >= 20, text[start + 19] == UInt8(ascii: ".") || text[start + 19] == UInt8(ascii: "Z") else {
            return
        }
        var prefix = InlineArray<19, UInt8>(repeating: 0)
        for index in 0..<19 { prefix[index] = text[start + index] }
        cachedSecond = second
        cachedPrefix = prefix
    }

    /// `text` as a JSON string, quotes included, escaped as `JSONEncoder` escapes with `.withoutEscapingSlashes`.
    mutating func putString(_ text: String) {
        put(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var start = 0
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == 0x22 || byte == 0x5C {
                put(UnsafeBufferPointer(rebasing: utf8[start..<index]))
                putEscape(byte)
                start = index + 1
            }
            put(UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        put(UInt8(ascii: "\""))
    }

    private mutating func putEscape(_ byte: UInt8) {
        put(UInt8(ascii: "\\"))
        switch byte {
        case 0x22: put(UInt8(ascii: "\""))
        case 0x5C: put(UInt8(ascii: "\\"))
        case 0x08: put(UInt8(ascii: "b"))
        case 0x0C: put(UInt8(ascii: "f"))
        case 0x0A: put(UInt8(ascii: "n"))
        case 0x0D: put(UInt8(ascii: "r"))
        case 0x09: put(UInt8(ascii: "t"))
        default:
            let hex = Array("0123456789abcdef".utf8)
            for digit in [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)],
                          hex[Int(byte & 0x0F)]] {
                put(digit)
            }
        }
    }
}
