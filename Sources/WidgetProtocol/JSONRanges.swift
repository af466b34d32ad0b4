/// Where values lie in JSON text, found by scanning past them rather than building them: the items of an array that is
/// a member of the top-level object, and the value of an object's member. For a reader that wants one item of a long
/// array (a stored timeline's current entry) and would otherwise build every item.
///
/// A scan checks the structure it walks (strings, separators, nesting), not the values it passes over: parse what it
/// finds (`value(in:of:)`) before trusting it. It answers nil wherever it is unsure, a key with an escape included,
/// and the caller then reads the whole text the ordinary way.
public enum JSONRanges {
    /// The byte ranges of the items of the array that is member `key` of the top-level object; nil when the text is
    /// not such an object, or has `key` more than once at its top level.
    public static func items(ofArrayMember key: String, in bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>]? {
        guard let value = member(key, ofObjectIn: 0..<bytes.count, of: bytes) else { return nil }
        var scanner = Scanner(bytes: UnsafeBufferPointer(rebasing: bytes[value]))
        return scanner.items()?.map { ($0.lowerBound + value.lowerBound)..<($0.upperBound + value.lowerBound) }
    }

    /// The byte range of member `key`'s value in the object that `range` of `bytes` holds (whitespace around it
    /// allowed); nil when it is not an object, has no such member, or has it more than once.
    public static func member(_ key: String, ofObjectIn range: Range<Int>,
                              of bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        var key = key
        return key.withUTF8 { wanted in
            var scanner = Scanner(bytes: UnsafeBufferPointer(rebasing: bytes[range]))
            guard let found = scanner.member(wanted) else { return nil }
            return (found.lowerBound + range.lowerBound)..<(found.upperBound + range.lowerBound)
        }
    }

    /// The value that `range` of `bytes` holds, parsed strictly (as `JSONDecoder` reads it, duplicate keys refused);
    /// nil when it is not one such value.
    public static func value(in range: Range<Int>, of bytes: UnsafeBufferPointer<UInt8>) -> JSONValue? {
        JSONFastParser.parse(UnsafeBufferPointer(rebasing: bytes[range]))
    }

    private struct Scanner: JSONByteReading {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        /// The items of the array that the text is.
        mutating func items() -> [Range<Int>]? {
            skipWhitespace()
            guard consume(UInt8(ascii: "[")) else { return nil }
            var items: [Range<Int>] = []
            skipWhitespace()
            if consume(UInt8(ascii: "]")) { return end() ? items : nil }
            while true {
                skipWhitespace()
                let start = index
                guard skipValue() else { return nil }
                items.append(start..<index)
                skipWhitespace()
                if consume(UInt8(ascii: ",")) { continue }
                guard consume(UInt8(ascii: "]")), end() else { return nil }
                return items
            }
        }

        /// The value of the member whose key is exactly `wanted` (no escapes) in the object that the text is.
        mutating func member(_ wanted: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
            skipWhitespace()
            guard consume(UInt8(ascii: "{")) else { return nil }
            skipWhitespace()
            if consume(UInt8(ascii: "}")) { return nil }
            var found: Range<Int>?
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
                let keyStart = index + 1
                guard skipString() else { return nil }
                let key = UnsafeBufferPointer(rebasing: bytes[keyStart..<(index - 1)])
                // An escaped key may spell `wanted` another way: unsure.
                if key.contains(UInt8(ascii: "\\")) { return nil }
                skipWhitespace()
                guard consume(UInt8(ascii: ":")) else { return nil }
                skipWhitespace()
                let start = index
                guard skipValue() else { return nil }
                if key.elementsEqual(wanted) {
                    guard found == nil else { return nil }
                    found = start..<index
                }
                skipWhitespace()
                if consume(UInt8(ascii: ",")) { continue }
                guard consume(UInt8(ascii: "}")), end() else { return nil }
                return found
            }
        }

        /// Whether only whitespace is left.
        mutating func end() -> Bool {
            skipWhitespace()
            return index == bytes.count
        }

        /// Moves past one value, nested ones included, without building it; false where the text ends first or a
        /// closing bracket or separator comes outside any container.
        mutating func skipValue() -> Bool {
            var depth = 0
            repeat {
                skipWhitespace()
                guard index < bytes.count else { return false }
                switch bytes[index] {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                    index += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    guard depth > 0 else { return false }
                    depth -= 1
                    index += 1
                case UInt8(ascii: ","), UInt8(ascii: ":"):
                    guard depth > 0 else { return false }
                    index += 1
                case UInt8(ascii: "\""):
                    guard skipString() else { return false }
                default:
                    let start = index
                    while index < bytes.count, !Self.endsScalar(bytes[index]) { index += 1 }
                    guard index > start else { return false }
                }
            } while depth > 0
            return true
        }
    }
}
