import Logging

/// The pure part of journal logging: how swift-log's level, message and metadata become journal fields.
public enum JournalFields {
    /// Journal field names longer than this are rejected by journald.
    public static let maximumNameLength = 64

    /// Fields the log handlers write themselves; metadata cannot overwrite them.
    public static let reservedNames: Set<String> = [
        "MESSAGE", "PRIORITY", "SYSLOG_IDENTIFIER", "CODE_FILE", "CODE_LINE", "CODE_FUNC",
    ]

    /// The prefix given to metadata keys that collide with `reservedNames` or start with a digit.
    public static let collisionPrefix = "META_"

    /// The syslog priority (0 emergency … 7 debug) for a swift-log level.
    public static func priority(of level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: return 7
        case .info: return 6
        case .notice: return 5
        case .warning: return 4
        case .error: return 3
        case .critical: return 2
        }
    }

    /// Turns a metadata key into a valid journal field name: ASCII letters upper-cased, every other character outside
    /// `[A-Z0-9_]` replaced by `_`, leading underscores dropped (they mark trusted fields that clients may not send),
    /// `META_` prefixed when the result starts with a digit or names a field the handler writes itself, and cut to 64
    /// characters. Returns nil when nothing usable is left (an empty key or only underscores).
    public static func fieldName(forMetadataKey key: String) -> String? {
        // Most keys are field names already (`WIDGET_ID`): return them without building a new string.
        if isFieldNameAsItIs(key) { return key }
        var characters: [Character] = key.unicodeScalars.map { scalar in
            switch scalar {
            case "a"..."z": return Character(String(scalar).uppercased())
            case "A"..."Z", "0"..."9", "_": return Character(scalar)
            default: return "_"
            }
        }
        while characters.first == "_" {
            characters.removeFirst()
        }
        guard let first = characters.first else { return nil }
        var name = String(characters)
        if first.isNumber || reservedNames.contains(name) {
            name = collisionPrefix + name
        }
        return String(name.prefix(maximumNameLength))
    }

    /// Whether `key` is its own field name: an upper-case ASCII letter, then upper-case letters, digits and
    /// underscores, at most `maximumNameLength` bytes, and not one of `reservedNames`. Every key of every line passes
    /// here.
    private static func isFieldNameAsItIs(_ key: String) -> Bool {
        // One pass over the bytes through a buffer (the UTF-8 view's iterator does much more work per byte), which
        // also tells whether the name could be reserved, by its length and first letter: only then is it hashed.
        var key = key
        let (valid, mayBeReserved) = key.withUTF8 { utf8 -> (Bool, Bool) in
            guard let first = utf8.first, first &- UInt8(ascii: "A") < 26, utf8.count <= maximumNameLength else {
                return (false, false)
            }
            for byte in utf8 where byte &- UInt8(ascii: "A") >= 26 && byte &- UInt8(ascii: "0") >= 10
                && byte != UInt8(ascii: "_") {
                return (false, false)
            }
            let lengths = reservedLengths >> UInt64(utf8.count) & 1 != 0
            return (true, lengths && reservedInitials >> UInt64(first - UInt8(ascii: "A")) & 1 != 0)
        }
        return valid && !(mayBeReserved && reservedNames.contains(key))
    }

    /// Bit n is set when a reserved name is n bytes long; bit c - "A" when one starts with the letter c.
    private static let reservedLengths: UInt64 = reservedNames.reduce(0) { $0 | 1 << UInt64($1.utf8.count) }
    private static let reservedInitials: UInt64 = reservedNames.reduce(0) {
        $0 | 1 << UInt64($1.utf8.first! - UInt8(ascii: "A"))
    }

    /// The text of a metadata value: strings as they are, everything else in swift-log's own rendering.
    public static func text(of value: Logger.MetadataValue) -> String {
        switch value {
        case .string(let string): return string
        case .stringConvertible(let convertible): return convertible.description
        case .array, .dictionary: return value.description
        }
    }

    /// Every field of one journal entry, in a stable order: the message, priority and identifier, the code location,
    /// then the metadata sorted by field name. When two metadata keys map to the same name, the one sorting last wins.
    public static func entry(
        message: String, level: Logger.Level, identifier: String, metadata: Logger.Metadata,
        file: String, line: UInt, function: String
    ) -> [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = [
            ("MESSAGE", message),
            ("PRIORITY", String(priority(of: level))),
            ("SYSLOG_IDENTIFIER", identifier),
            ("CODE_FILE", file),
            ("CODE_LINE", String(line)),
            ("CODE_FUNC", function),
        ]
        fields.reserveCapacity(fields.count + metadata.count)
        fields.append(contentsOf: metadataFields(metadata))
        return fields
    }

    /// The metadata as journal fields sorted by name; when two keys map to the same name, the one sorting last wins.
    /// Every journal line of the daemon passes here.
    public static func metadataFields(_ metadata: Logger.Metadata) -> [(name: String, value: String)] {
        // The usual case: every key is a field name already (the daemon's `JournalField` names), so names are the
        // keys, unique, and the fields are sorted by insertion (a line has ~10).
        var fields: [(name: String, value: String)] = []
        fields.reserveCapacity(metadata.count)
        for (key, value) in metadata {
            guard isFieldNameAsItIs(key) else { return normalizedFields(metadata) }
            fields.append((key, text(of: value)))
        }
        // Through the buffer: the array's subscript retained and released both names of every comparison.
        fields.withUnsafeMutableBufferPointer { buffer in
            for end in buffer.indices.dropFirst() {
                var index = end
                while index > 0, buffer[index].name < buffer[index - 1].name {
                    buffer.swapAt(index, index - 1)
                    index -= 1
                }
            }
        }
        return fields
    }

    /// `metadataFields` when some key must be renamed, so that two keys may map to one name.
    private static func normalizedFields(_ metadata: Logger.Metadata) -> [(name: String, value: String)] {
        // The names are sorted by index: moving (name, key, value) tuples about was most of this function's time.
        var names: [String] = []
        var keys: [String] = []
        var values: [Logger.MetadataValue] = []
        names.reserveCapacity(metadata.count)
        keys.reserveCapacity(metadata.count)
        values.reserveCapacity(metadata.count)
        for (key, value) in metadata {
            guard let name = fieldName(forMetadataKey: key) else { continue }
            names.append(name)
            keys.append(key)
            values.append(value)
        }
        var order = Array(names.indices)
        order.sort { names[$0] != names[$1] ? names[$0] < names[$1] : keys[$0] < keys[$1] }
        var fields: [(name: String, value: String)] = []
        fields.reserveCapacity(order.count)
        for (position, index) in order.enumerated()
        where position + 1 == order.count || names[order[position + 1]] != names[index] {
            fields.append((names[index], text(of: values[index])))
        }
        return fields
    }

    /// The merged metadata for one event: the handler's, then the provider's, then the call's, later ones winning.
    static func merge(
        handler: Logger.Metadata, provider: Logger.MetadataProvider?, event: Logger.Metadata?, error: (any Error)?
    ) -> Logger.Metadata {
        // The usual case, a logger without metadata of its own: the call's metadata as it is.
        if handler.isEmpty, provider == nil, error == nil { return event ?? [:] }
        var merged = handler
        if let provided = provider?.get() {
            merged.merge(provided) { _, new in new }
        }
        if let event {
            merged.merge(event) { _, new in new }
        }
        if let error {
            merged["ERROR"] = .string(String(describing: error))
        }
        return merged
    }
}
