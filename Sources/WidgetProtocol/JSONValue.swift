import Foundation

/// Any JSON value, for configurations, entry content and Varlink parameters.
///
/// Numbers keep whether they were written as integers, so `3` round-trips as `3`, not `3.0`.
public enum JSONValue: Sendable, Hashable, Codable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: Decoder) throws {
        // A decoder tells a value's type only by failing to read it as another, and each failure builds an error
        // with its coding path: the commonest types are tried first (strings and objects, which fill contents and
        // view documents), and an integer before a decimal so that 3 stays an integer.
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([String: JSONValue].self) {
            self = .object(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON value")
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The JSON type's name, for error messages: "null", "boolean", "integer", "number", "string", "array", "object".
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .integer: return "integer"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// Compact JSON text with sorted keys, e.g. for storing entry content: what `JSONEncoder` writes with
    /// `.sortedKeys` and `.withoutEscapingSlashes` (written directly, as every provider answer's entries pass here),
    /// and `null` for a value JSON cannot hold (a NaN or infinite number), where `JSONEncoder` throws.
    public func jsonText() -> String {
        guard isRepresentable else { return "null" }
        var writer = JSONBytesWriter(reservingCapacity: 64)
        writer.value(self)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// Whether every number in the value is finite.
    private var isRepresentable: Bool {
        switch self {
        case .number(let number): return number.isFinite
        case .array(let items): return items.allSatisfy(\.isRepresentable)
        case .object(let members): return members.values.allSatisfy(\.isRepresentable)
        case .null, .bool, .integer, .string: return true
        }
    }

    /// Parses JSON text; nil if it is not I-JSON (one JSON value whose objects have distinct keys).
    public init?(jsonText: String) {
        if let value = JSONFastParser.parse(jsonText) {
            self = value
            return
        }
        guard case .success(let value) = Self.parse(Array(jsonText.utf8)) else { return nil }
        self = value
    }

    /// Why text is not one I-JSON value.
    enum ParseFailure: Error, Sendable, Hashable {
        /// Not one JSON value.
        case notJSON
        /// An object has a key twice (RFC 7493 §2.3).
        case duplicateKey(JSONDuplicateKey)
    }

    /// Parses I-JSON (RFC 7493): one JSON value whose objects have distinct keys. `JSONFastParser` reads almost
    /// every text, and leaves a repeated key (with anything else it is unsure of) to `JSONDecoder`, which would keep
    /// one of the values: after it, the text is scanned for a repeated key.
    static func parse(_ bytes: [UInt8]) -> Result<JSONValue, ParseFailure> {
        if let value = JSONFastParser.parse(bytes) { return .success(value) }
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes)) else {
            return .failure(.notJSON)
        }
        if let duplicate = JSONDuplicateKey.first(in: bytes) { return .failure(.duplicateKey(duplicate)) }
        return .success(value)
    }
}
