/// A reader of JSON text's bytes at a position: the steps every such reader takes (whitespace skipped, one byte
/// consumed, a literal or a string passed over). `JSONFastParser`, `JSONDuplicateKey` and `JSONRanges` read with
/// them.
protocol JSONByteReading {
    /// The text.
    var bytes: UnsafeBufferPointer<UInt8> { get }
    /// The position of the next byte to read.
    var index: Int { get set }
}

extension JSONByteReading {
    /// Moves past JSON whitespace (space, tab, line feed, carriage return).
    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    /// Moves past `byte` if it comes next; whether it did.
    mutating func consume(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// The value of the four hex digits of a `\uXXXX` escape (the `\u` already read), moving past them; nil if
    /// they are not four hex digits.
    mutating func hex4() -> UInt32? {
        guard bytes.count - index >= 4 else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// Moves past `text` if it comes next; whether it did.
    mutating func matchLiteral(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        for offset in 0..<count where bytes[index + offset] != text.utf8Start[offset] { return false }
        index += count
        return true
    }

    /// Moves past a string starting at its quote, escapes unread; false if it does not end.
    mutating func skipString() -> Bool {
        index += 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index += 1
                return true
            case UInt8(ascii: "\\"):
                index += 2
            default:
                index += 1
            }
        }
        return false
    }

    /// Whether `byte` ends a number or a literal: a structural byte, a quote or whitespace.
    static func endsScalar(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ":"), UInt8(ascii: "\""),
             UInt8(ascii: "{"), UInt8(ascii: "["), 0x20, 0x0A, 0x0D, 0x09:
            return true
        default:
            return false
        }
    }
}
