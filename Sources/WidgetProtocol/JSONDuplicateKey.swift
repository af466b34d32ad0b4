/// An object key given twice in JSON text, which I-JSON (RFC 7493 §2.3) forbids: `JSONDecoder` keeps one of the
/// values and drops the other without a word, so a peer and the daemon could read different things in one message.
///
/// Keys compare as Swift strings compare (canonical equivalence), as the dictionary that would hold them does.
public struct JSONDuplicateKey: Sendable, Hashable, CustomStringConvertible {
    /// The repeated key.
    public var key: String
    /// Where the object holding it is, as `entries[0].content`; empty for the top-level object.
    public var path: String

    public init(key: String, path: String) {
        self.key = key
        self.path = path
    }

    /// `the key "a" more than once (in entries[0].content)`, to follow "answer has" or "the call has".
    public var description: String {
        "the key \(JSONValue.string(key).jsonText()) more than once" + (path.isEmpty ? "" : " (in \(path))")
    }

    /// The first repeated key of `bytes` in document order, or nil when there is none. The text is scanned, not
    /// parsed: callers have it parsed already (a malformed text ends the scan, with nil), and the scan keeps no
    /// recursion, so any depth the parser accepted is scanned.
    static func first(in bytes: UnsafeBufferPointer<UInt8>) -> JSONDuplicateKey? {
        var scanner = Scanner(bytes: bytes)
        return scanner.firstDuplicate()
    }

    public static func first(in bytes: [UInt8]) -> JSONDuplicateKey? {
        bytes.withUnsafeBufferPointer { first(in: $0) }
    }

    private struct Scanner: JSONByteReading {
        /// An open container: an object with its keys so far and the key being read, or an array and its index.
        enum Frame {
            case object(keys: Set<String>, current: String?)
            case array(index: Int)
        }

        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
        var frames: [Frame] = []

        mutating func firstDuplicate() -> JSONDuplicateKey? {
            while true {
                skipWhitespace()
                guard index < bytes.count else { return nil }
                switch bytes[index] {
                case UInt8(ascii: "{"):
                    index += 1
                    frames.append(.object(keys: [], current: nil))
                    skipWhitespace()
                    if consume(UInt8(ascii: "}")) {
                        frames.removeLast()
                        continue
                    }
                    if let duplicate = nextKey() { return duplicate }
                case UInt8(ascii: "["):
                    index += 1
                    frames.append(.array(index: 0))
                    skipWhitespace()
                    if consume(UInt8(ascii: "]")) { frames.removeLast() }
                case UInt8(ascii: ","):
                    index += 1
                    guard let frame = frames.popLast() else { return nil }
                    switch frame {
                    case .array(let position):
                        frames.append(.array(index: position + 1))
                    case .object(let keys, _):
                        frames.append(.object(keys: keys, current: nil))
                        skipWhitespace()
                        if let duplicate = nextKey() { return duplicate }
                    }
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    index += 1
                    guard frames.popLast() != nil else { return nil }
                case UInt8(ascii: "\""):
                    guard skipString() else { return nil }
                default:
                    // A number or a literal: up to the next structural byte.
                    index += 1
                    while index < bytes.count, !Self.endsScalar(bytes[index]) { index += 1 }
                }
            }
        }

        /// Reads the key at `index` and its colon into the innermost object; the duplicate if it is one.
        mutating func nextKey() -> JSONDuplicateKey? {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string(),
                  case .object(var keys, _)? = frames.popLast() else {
                index = bytes.count
                return nil
            }
            if !keys.insert(key).inserted {
                return JSONDuplicateKey(key: key, path: path())
            }
            frames.append(.object(keys: keys, current: key))
            skipWhitespace()
            if !consume(UInt8(ascii: ":")) { index = bytes.count }
            return nil
        }

        /// The path of the innermost open container: each enclosing object's current key, each array's index.
        func path() -> String {
            var path = ""
            for frame in frames {
                switch frame {
                case .object(_, let current?):
                    path += path.isEmpty ? current : "." + current
                case .object(_, nil):
                    break
                case .array(let position):
                    path += "[\(position)]"
                }
            }
            return path
        }

        /// The decoded text of the string starting at its quote, escapes resolved; nil if it does not end or holds a
        /// bad escape. A lone surrogate escape becomes U+FFFD, as a key `JSONDecoder` would not have accepted anyway.
        mutating func string() -> String? {
            index += 1
            var scalars = String.UnicodeScalarView()
            var start = index
            func flush(upTo end: Int) {
                scalars.append(contentsOf: String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]),
                                                  as: UTF8.self).unicodeScalars)
            }
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    flush(upTo: index)
                    index += 1
                    return String(scalars)
                }
                guard byte == UInt8(ascii: "\\") else {
                    index += 1
                    continue
                }
                flush(upTo: index)
                guard index + 1 < bytes.count else { return nil }
                let escape = bytes[index + 1]
                index += 2
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(Unicode.Scalar(escape))
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    guard let unit = hex4() else { return nil }
                    if (0xD800...0xDBFF).contains(unit), bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"),
                       bytes[index + 1] == UInt8(ascii: "u") {
                        let mark = index
                        index += 2
                        if let low = hex4(), (0xDC00...0xDFFF).contains(low),
                           let scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)) {
                            scalars.append(scalar)
                        } else {
                            index = mark
                            scalars.append("\u{FFFD}")
                        }
                    } else {
                        scalars.append(Unicode.Scalar(unit) ?? "\u{FFFD}")
                    }
                default:
                    return nil
                }
                start = index
            }
            return nil
        }
    }
}
