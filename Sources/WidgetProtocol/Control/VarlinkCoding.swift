import Foundation
import WidgetSchedulerCore

/// JSON encoding and decoding for the control wire: RFC 3339 dates, sorted keys, and parameter decoding whose errors
/// name the parameter at fault.
public enum VarlinkCoding {
    /// An encoder writing compact JSON with sorted keys and RFC 3339 dates.
    ///
    /// Dates are held within `SupportedRange.dates`, which the decoder reads back: a date past year 9999 (a backoff
    /// or a floor thousands of years out) is written as 9999-12-31T23:59:59.999Z, one before 1970 as the epoch.
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(RFC3339.string(from: SupportedRange.clamped(date)))
        }
        return encoder
    }

    /// A decoder reading RFC 3339 dates; any other date form is a decoding error naming the field.
    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = RFC3339.date(from: text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "\"\(text)\" is not an RFC 3339 date")
            }
            return date
        }
        return decoder
    }

    /// The JSON bytes of `value` (no NUL terminator).
    public static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        Array(try makeEncoder().encode(value))
    }

    /// `value` as a Varlink parameters object. Values that do not encode to a JSON object become an empty object;
    /// every parameters and reply type of this interface is a struct, so that does not happen in practice.
    public static func parameters<T: Encodable>(_ value: T) -> [String: JSONValue] {
        guard let data = try? makeEncoder().encode(value),
              let json = try? JSONDecoder().decode(JSONValue.self, from: data),
              case .object(let object) = json
        else { return [:] }
        return object
    }

    /// Decodes a method's parameters; a missing, mistyped or malformed field becomes `InvalidParameter` naming it.
    public static func decode<T: Decodable>(
        _ type: T.Type, from parameters: [String: JSONValue]?
    ) throws(ControlError) -> T {
        do {
            let data = try makeEncoder().encode(JSONValue.object(parameters ?? [:]))
            return try makeDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            throw describe(error)
        } catch {
            throw ControlError.invalidParameter("parameters", reason: "\(error)")
        }
    }

    /// Turns a decoding error into `InvalidParameter` naming the field by its dotted path.
    public static func describe(_ error: DecodingError) -> ControlError {
        func path(_ keys: [CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
                .joined(separator: ".")
                .replacingOccurrences(of: ".[", with: "[")
        }
        switch error {
        case .keyNotFound(let key, let context):
            return .invalidParameter(path(context.codingPath + [key]), reason: "is required")
        case .typeMismatch(let type, let context):
            return .invalidParameter(path(context.codingPath), reason: "must be \(typeName(type))")
        case .valueNotFound(let type, let context):
            return .invalidParameter(path(context.codingPath), reason: "must be \(typeName(type)), not null")
        case .dataCorrupted(let context):
            let name = context.codingPath.isEmpty ? "parameters" : path(context.codingPath)
            return .invalidParameter(name, reason: context.debugDescription)
        @unknown default:
            return .invalidParameter("parameters", reason: "\(error)")
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Bool.Type: return "a boolean"
        case is Int.Type, is Int64.Type, is Int32.Type, is UInt32.Type: return "an integer"
        case is Double.Type: return "a number"
        case is Date.Type: return "an RFC 3339 date string"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Array") { return "an array" }
            if name.hasPrefix("Dictionary") { return "an object" }
            return "of type \(name)"
        }
    }
}

/// A method of the control interface with its parameters and reply types, so both ends encode and decode the same
/// shapes: the client calls `ControlClient.call(ReloadMethod.self, ...)`, the daemon decodes with
/// `call.parameters(ReloadMethod.self)`.
public protocol VarlinkMethod {
    associatedtype Parameters: Codable & Sendable
    associatedtype Reply: Codable & Sendable
    /// The method's name in `io.widgetscheduler.Scheduler`.
    static var method: ControlMethod { get }
}

/// The parameters (or reply) of a method that takes (or returns) none: `{}`.
public struct NoParameters: Sendable, Hashable, Codable {
    public init() {}
}
