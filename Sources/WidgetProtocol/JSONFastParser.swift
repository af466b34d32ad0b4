/// Parses well-formed JSON into `JSONValue` straight from bytes, giving exactly what `JSONDecoder` gives for it.
///
/// It exists for speed: every provider answer is parsed, and `JSONDecoder` was a tenth of the daemon's time per run.
/// It returns nil whenever it is not certain to agree with `JSONDecoder`: on malformed input (whose error message the
/// callers then take from the Foundation parsers), on duplicate object keys, on integral numbers beyond 2^53 and on
/// nesting deeper than `maximumDepth`. Callers fall back to `JSONDecoder` on nil.
///
/// `JSONDecoder` reads a number as `.integer` when its value is integral and fits `Int64` (`3.0`, `1e2`, even
/// `1e-400`), else as `.number`; this does the same.
enum JSONFastParser {
    static let maximumDepth = 200

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONValue? {
        var parser = Parser(bytes: bytes)
        parser.skipWhitespace()
        guard let value = parser.value(depth: 0) else { return nil }
        parser.skipWhitespace()
        return parser.index == bytes.count ? value : nil
    }

    static func parse(_ bytes: [UInt8]) -> JSONValue? {
        bytes.withUnsafeBufferPointer { parse($0) }
    }

    static func parse(_ text: String) -> JSONValue? {
        var text = text
        return text.withUTF8 { parse($0) }
    }

    private struct Parser: JSONByteReading {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        mutating func literal(_ text: StaticString, _ value: JSONValue) -> JSONValue? {
            matchLiteral(text) ? value : nil
        }

        mutating func value(depth: Int) -> JSONValue? {
            guard index < bytes.count, depth < JSONFastParser.maximumDepth else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "{"): return object(depth: depth)
            case UInt8(ascii: "["): return array(depth: depth)
            case UInt8(ascii: "\""): return string().map(JSONValue.string)
            case UInt8(ascii: "t"): return literal("true", .bool(true))
            case UInt8(ascii: "f"): return literal("false", .bool(false))
            case UInt8(ascii: "n"): return literal("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
            default: return nil
            }
        }

        /// After a member or an item: true at `closing`, false after a comma (either consumed), nil on anything else.
        mutating func closedOrComma(_ closing: UInt8) -> Bool? {
            skipWhitespace()
            if consume(UInt8(ascii: ",")) { return false }
            return consume(closing) ? true : nil
        }

        mutating func object(depth: Int) -> JSONValue? {
            index += 1
            skipWhitespace()
            if consume(UInt8(ascii: "}")) { return .object([:]) }
            // Room for a few members at once: growing from empty reallocated the storage at the first, second and
            // fourth member, each time through the runtime's generic metadata cache.
            var members = [String: JSONValue](minimumCapacity: 4)
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string() else { return nil }
                skipWhitespace()
                guard consume(UInt8(ascii: ":")) else { return nil }
                skipWhitespace()
                guard let value = value(depth: depth + 1) else { return nil }
                // JSONDecoder keeps one of the duplicates; which one is its business, so leave the case to it.
                guard members.updateValue(value, forKey: key) == nil else { return nil }
                guard let closed = closedOrComma(UInt8(ascii: "}")) else { return nil }
                if closed { return .object(members) }
            }
        }

        mutating func array(depth: Int) -> JSONValue? {
            index += 1
            var items: [JSONValue] = []
            skipWhitespace()
            if consume(UInt8(ascii: "]")) { return .array(items) }
            while true {
                skipWhitespace()
                guard let item = value(depth: depth + 1) else { return nil }
                items.append(item)
                guard let closed = closedOrComma(UInt8(ascii: "]")) else { return nil }
                if closed { return .array(items) }
            }
        }

        /// A string starting at the opening quote; nil on a control character, a bad escape, a lone surrogate or
        /// invalid UTF-8.
        mutating func string() -> String? {
            index += 1
            let start = index
            var isASCII = true
            // The common case: no escape, copied as it is once validated (ASCII needs no validation).
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    defer { index += 1 }
                    let text = UnsafeBufferPointer(rebasing: bytes[start..<index])
                    return isASCII ? String(decoding: text, as: UTF8.self) : String(validating: text, as: UTF8.self)
                }
                if byte == UInt8(ascii: "\\") { break }
                if byte < 0x20 { return nil }
                if byte >= 0x80 { isASCII = false }
                index += 1
            }
            var decoded = Array(bytes[start..<index])
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    return String(validating: decoded, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    index += 1
                    guard index < bytes.count else { return nil }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
                    case UInt8(ascii: "b"): decoded.append(0x08)
                    case UInt8(ascii: "f"): decoded.append(0x0C)
                    case UInt8(ascii: "n"): decoded.append(0x0A)
                    case UInt8(ascii: "r"): decoded.append(0x0D)
                    case UInt8(ascii: "t"): decoded.append(0x09)
                    case UInt8(ascii: "u"):
                        guard let scalar = unicodeEscape() else { return nil }
                        decoded.append(contentsOf: String(Character(scalar)).utf8)
                    default: return nil
                    }
                default:
                    if byte < 0x20 { return nil }
                    decoded.append(byte)
                    index += 1
                }
            }
            return nil
        }

        /// The scalar of `\uXXXX` (the `\u` already read), joining a surrogate pair; nil for a lone surrogate.
        mutating func unicodeEscape() -> Unicode.Scalar? {
            guard let high = hex4() else { return nil }
            if (0xD800...0xDBFF).contains(high) {
                guard bytes.count - index >= 2, bytes[index] == UInt8(ascii: "\\"),
                      bytes[index + 1] == UInt8(ascii: "u") else { return nil }
                index += 2
                guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
            }
            return Unicode.Scalar(high)
        }

        /// A number by RFC 8259's grammar.
        mutating func number() -> JSONValue? {
            let start = index
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
            } else {
                guard digits() > 0 else { return nil }
            }
            var isPlainInteger = true
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { return nil }
                isPlainInteger = false
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                    index += 1
                }
                guard digits() > 0 else { return nil }
                isPlainInteger = false
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            if isPlainInteger, let integer = Int64(text) { return .integer(integer) }
            guard let double = Double(text), double.isFinite else { return nil }
            if double.rounded(.towardZero) == double, abs(double) < 1e19 {
                // Integral: JSONDecoder reads it as an integer when it fits Int64 (beyond 1e19 it cannot). Between
                // 2^53 and 1e19 a Double may not hold the written value exactly, so that case is left to it.
                guard abs(double) < 9_007_199_254_740_992 else { return nil }
                return .integer(Int64(double))
            }
            return .number(double)
        }

        mutating func digits() -> Int {
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - start
        }
    }
}
