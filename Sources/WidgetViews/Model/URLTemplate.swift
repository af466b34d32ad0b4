import WidgetProtocol

/// A tap target: a URL with `{path}` holes filled from the content, percent-encoded
/// (`weather://city/{location}`). The scheme is always written out, and schemes that would run code in a page
/// (`javascript:`, `data:`, ...) are refused, so no content can turn a tap into a script.
public struct URLTemplate: Sendable, Hashable, CustomStringConvertible {
    /// One piece of the template.
    public enum Part: Sendable, Hashable {
        case literal(String)
        case path(ContentPath)
    }

    /// The template as written.
    public let text: String
    public let parts: [Part]

    /// Schemes never accepted: a page would run them, or read the host's files.
    public static let refusedSchemes: Set<String> = ["javascript", "vbscript", "data", "file", "blob", "about"]
    /// The longest template accepted, in bytes.
    public static let maximumLength = 2048

    /// A problem with a template's text.
    public struct Problem: Error, Sendable, Hashable {
        public var message: String
    }

    /// Parses `text`, or says what is wrong with it.
    public static func parse(_ text: String) -> Result<URLTemplate, Problem> {
        guard text.utf8.count <= maximumLength else {
            return .failure(Problem(message: "expected a URL of at most \(maximumLength) bytes"))
        }
        guard let colon = text.firstIndex(of: ":") else {
            return .failure(Problem(message: "expected a URL with a scheme, such as \"weather://today\""))
        }
        let scheme = text[..<colon]
        guard let first = scheme.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic,
              scheme.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)
                  || $0 == "+" || $0 == "-" || $0 == ".") })
        else {
            return .failure(Problem(message: "expected a URL whose scheme is written out ([A-Za-z][A-Za-z0-9+.-]*)"))
        }
        guard !refusedSchemes.contains(scheme.lowercased()) else {
            return .failure(Problem(message: "the scheme \"\(scheme.lowercased()):\" is not allowed in a view"))
        }
        var parts: [Part] = []
        var literal = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "{" {
                guard let close = text[index...].firstIndex(of: "}") else {
                    return .failure(Problem(message: "expected a \"}\" closing the \"{\" of a content path"))
                }
                let name = String(text[text.index(after: index)..<close])
                guard let path = ContentPath(name), !path.isEntryDate else {
                    return .failure(Problem(message: "expected a content path between braces, found \"{\(name)}\""))
                }
                if !literal.isEmpty { parts.append(.literal(literal)) }
                literal = ""
                parts.append(.path(path))
                index = text.index(after: close)
                continue
            }
            guard character.unicodeScalars.allSatisfy(Self.isURLScalar) else {
                return .failure(Problem(message: "expected a URL without spaces, quotes, angle brackets or control "
                    + "characters (percent-encode them)"))
            }
            literal.append(character)
            index = text.index(after: index)
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        return .success(URLTemplate(text: text, parts: parts))
    }

    private init(text: String, parts: [Part]) {
        self.text = text
        self.parts = parts
    }

    public var description: String { text }

    /// The URL for `content`, or nil when a hole's field is missing or not a string or number. Filled values are
    /// percent-encoded, so they cannot end the URL's path or add a scheme.
    public func url(content: JSONValue) -> String? {
        var url = ""
        for part in parts {
            switch part {
            case .literal(let text):
                url += text
            case .path(let path):
                switch path.value(in: content) {
                case .string(let text)?: url += Self.percentEncoded(text)
                case .integer(let number)?: url += String(number)
                case .number(let number)? where number.isFinite: url += Self.percentEncoded(NumberText.plain(number))
                default: return nil
                }
            }
        }
        return url
    }

    /// `text` with every byte outside RFC 3986's unreserved set percent-encoded.
    static func percentEncoded(_ text: String) -> String {
        guard !text.utf8.allSatisfy(isUnreserved) else { return text }
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count * 3)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                output.append(byte)
            } else {
                output.append(UInt8(ascii: "%"))
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
             UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    private static func isURLScalar(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.value > 0x20, scalar.value != 0x7F else { return false }
        if (0x80...0x9F).contains(scalar.value) { return false }
        return !["\"", "<", ">", "\\", "^", "`", "|"].contains(scalar)
    }
}
