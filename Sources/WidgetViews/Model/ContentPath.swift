import WidgetProtocol

/// Where a view reads a value in an entry's content: `weather.temperature`, `hours.0.temperature`, or `@date`, the
/// entry's own date.
///
/// Segments are separated by dots; each is a member name (`[A-Za-z0-9_-]+`), and a segment of digits also indexes an
/// array. A path that leads nowhere is missing, never an error: the renderer draws a placeholder there.
public struct ContentPath: Sendable, Hashable, CustomStringConvertible {
    /// The path as written.
    public let text: String
    /// The member names (or array indexes) in order; empty for `@date`.
    public let segments: [Segment]
    /// Whether the path is `@date`, the entry's date.
    public var isEntryDate: Bool { segments.isEmpty }

    /// One step of a path.
    public struct Segment: Sendable, Hashable {
        /// The member name.
        public let name: String
        /// The array index the name also spells, if it is all digits (and small enough to be one).
        public let index: Int?
    }

    /// The special path of the entry's date.
    public static let entryDate = "@date"
    /// The longest path accepted, in bytes.
    public static let maximumLength = 200

    /// Parses `text`; nil if it is not a path.
    public init?(_ text: String) {
        guard !text.isEmpty, text.utf8.count <= Self.maximumLength else { return nil }
        if text == Self.entryDate {
            self.text = text
            segments = []
            return
        }
        var segments: [Segment] = []
        for part in text.split(separator: ".", omittingEmptySubsequences: false) {
            guard !part.isEmpty, part.utf8.allSatisfy(Self.isNameByte) else { return nil }
            let name = String(part)
            let isDigits = part.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            // Nine digits at most, so the index always fits an Int and no conversion can trap.
            segments.append(Segment(name: name, index: isDigits && part.utf8.count <= 9 ? Int(name) : nil))
        }
        self.text = text
        self.segments = segments
    }

    public var description: String { text }

    /// The value at this path in `content`, nil when the path leads nowhere. JSON `null` counts as missing.
    public func value(in content: JSONValue) -> JSONValue? {
        var current = content
        for segment in segments {
            switch current {
            case .object(let members):
                guard let next = members[segment.name] else { return nil }
                current = next
            case .array(let items):
                guard let index = segment.index, index < items.count else { return nil }
                current = items[index]
            default:
                return nil
            }
        }
        return current == .null ? nil : current
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "-")
    }
}
