import Foundation
import WidgetSchedulerCore

/// The fast path of `ProviderAnswerDecoder.timeline(from:maxEntries:)`: reads a timeline answer straight from its
/// bytes when it is of the usual shape, without building a `JSONValue` tree and encoding each entry's content again.
///
/// The usual shape: an object with `entries` and `policy` (whitespace allowed around its parts), entries with only
/// `date` and `content`, dates that parse, lie in `SupportedRange.dates` and increase, and each content already in
/// the form the decoder stores (`JSONValue.jsonText()`: compact, object keys in increasing order, ASCII strings
/// without escapes, integers of at most 15 digits). Its content text is then kept as it was written. Anything else
/// (a relevance, an unknown or repeated key, an error of any kind, content in another form) returns nil, and the full
/// decoder decides, so every answer gets the same timeline or the same error either way. Every run's answer passes
/// here: the tree and the re-encoding were most of a run's decoding.
struct CanonicalTimelineReader: JSONByteReading {
    /// Content nested deeper than this is left to the full decoder.
    static let maximumContentDepth = 64

    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The timeline in `bytes`, or nil when the full decoder must read them.
    static func timeline(from bytes: UnsafeBufferPointer<UInt8>, maxEntries: Int) -> Timeline? {
        var reader = CanonicalTimelineReader(bytes: bytes)
        return reader.answer(maxEntries: maxEntries)
    }

    // MARK: - The answer

    private mutating func answer(maxEntries: Int) -> Timeline? {
        skipWhitespace()
        guard consume(UInt8(ascii: "{")) else { return nil }
        var entries: [TimelineEntry]?
        var policy: ReloadPolicy?
        repeat {
            guard let key = memberKey() else { return nil }
            if Self.equals(key, "entries"), entries == nil {
                guard let read = self.entries(maxEntries: maxEntries) else { return nil }
                entries = read
            } else if Self.equals(key, "policy"), policy == nil {
                guard let read = self.policy() else { return nil }
                policy = read
            } else {
                return nil
            }
            skipWhitespace()
        } while consume(UInt8(ascii: ","))
        guard consume(UInt8(ascii: "}")), let entries, let policy else { return nil }
        skipWhitespace()
        guard index == bytes.count else { return nil }
        return Timeline(entries: entries, policy: policy)
    }

    private mutating func entries(maxEntries: Int) -> [TimelineEntry]? {
        guard consume(UInt8(ascii: "[")) else { return nil }
        var entries: [TimelineEntry] = []
        repeat {
            skipWhitespace()
            guard entries.count < maxEntries, let entry = entry() else { return nil }
            // Out of order or a repeated date: the full decoder sorts, or names the duplicate.
            if let last = entries.last, !(last.date < entry.date) { return nil }
            entries.append(entry)
            skipWhitespace()
        } while consume(UInt8(ascii: ","))
        guard consume(UInt8(ascii: "]")) else { return nil }
        return entries
    }

    private mutating func entry() -> TimelineEntry? {
        guard consume(UInt8(ascii: "{")) else { return nil }
        var date: Date?
        var content: String?
        repeat {
            guard let key = memberKey() else { return nil }
            if Self.equals(key, "date"), date == nil {
                guard let text = plainString(), let parsed = RFC3339.date(utf8: text),
                      SupportedRange.contains(date: parsed) else { return nil }
                date = parsed
            } else if Self.equals(key, "content"), content == nil {
                let start = index
                guard canonicalValue(depth: 0) else { return nil }
                content = Self.text(UnsafeBufferPointer(rebasing: bytes[start..<index]))
            } else {
                return nil
            }
            skipWhitespace()
        } while consume(UInt8(ascii: ","))
        guard consume(UInt8(ascii: "}")), let date, let content else { return nil }
        return TimelineEntry(date: date, relevance: nil, content: content)
    }

    private mutating func policy() -> ReloadPolicy? {
        if let name = plainString() {
            if Self.equals(name, "atEnd") { return .atEnd }
            if Self.equals(name, "never") { return .never }
            return nil
        }
        guard consume(UInt8(ascii: "{")), let key = memberKey(), Self.equals(key, "after") else { return nil }
        guard let text = plainString(), let date = RFC3339.date(utf8: text),
              SupportedRange.contains(date: date) else { return nil }
        skipWhitespace()
        guard consume(UInt8(ascii: "}")) else { return nil }
        return .after(date)
    }

    // MARK: - Content in stored form

    /// Skips one value written exactly as `JSONValue.jsonText()` writes what it holds; false if it is not.
    private mutating func canonicalValue(depth: Int) -> Bool {
        guard index < bytes.count, depth < Self.maximumContentDepth else { return false }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            return plainString() != nil
        case UInt8(ascii: "{"):
            index += 1
            if consume(UInt8(ascii: "}")) { return true }
            var previous: UnsafeBufferPointer<UInt8>?
            repeat {
                // Keys in increasing order: `JSONBytesWriter` sorts them with String's `<`, which for ASCII is
                // the bytes' order; a repeated key is not increasing either.
                guard let key = plainString() else { return false }
                if let previous, !Self.precedes(previous, key) { return false }
                previous = key
                guard consume(UInt8(ascii: ":")), canonicalValue(depth: depth + 1) else { return false }
            } while consume(UInt8(ascii: ","))
            return consume(UInt8(ascii: "}"))
        case UInt8(ascii: "["):
            index += 1
            if consume(UInt8(ascii: "]")) { return true }
            repeat {
                guard canonicalValue(depth: depth + 1) else { return false }
            } while consume(UInt8(ascii: ","))
            return consume(UInt8(ascii: "]"))
        case UInt8(ascii: "t"):
            return matchLiteral("true")
        case UInt8(ascii: "f"):
            return matchLiteral("false")
        case UInt8(ascii: "n"):
            return matchLiteral("null")
        default:
            return canonicalInteger()
        }
    }

    /// An integer as `String(Int64)` writes it: no sign but a minus, no leading zero, not `-0`; at most 15 digits,
    /// so that it surely fits. A fraction or an exponent is left to the full decoder.
    private mutating func canonicalInteger() -> Bool {
        let start = index
        let negative = consume(UInt8(ascii: "-"))
        let digitsStart = index
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            index += 1
        }
        let count = index - digitsStart
        guard count > 0, count <= 15 else { return false }
        if bytes[digitsStart] == UInt8(ascii: "0") && (count > 1 || negative) { return false }
        if index < bytes.count {
            // "1.5" or "1e3" must not pass as "1" followed by something else.
            let next = bytes[index]
            if next == UInt8(ascii: ".") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E") { return false }
        }
        return index > start
    }

    // MARK: - Pieces

    /// An object member's key and its colon, with the whitespace around them: the key, or nil.
    private mutating func memberKey() -> UnsafeBufferPointer<UInt8>? {
        skipWhitespace()
        guard let key = plainString() else { return nil }
        skipWhitespace()
        guard consume(UInt8(ascii: ":")) else { return nil }
        skipWhitespace()
        return key
    }

    /// A string of printable ASCII without escapes (the bytes between its quotes), or nil with the position
    /// unspecified: other strings are left to the full decoder.
    private mutating func plainString() -> UnsafeBufferPointer<UInt8>? {
        guard consume(UInt8(ascii: "\"")) else { return nil }
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return UnsafeBufferPointer(rebasing: bytes[start..<index - 1])
            }
            guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
            index += 1
        }
        return nil
    }

    private static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
        bytes.elementsEqual(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Whether `lhs` sorts before `rhs`, byte by byte, a prefix first.
    private static func precedes(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Bool {
        lhs.lexicographicallyPrecedes(rhs)
    }

    private static func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}
