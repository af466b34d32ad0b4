import WidgetSchedulerCore

/// Why a provider's answer was rejected. Each message names the entry and the field at fault.
///
/// Entries are numbered by their position in the answer's `"entries"` array, counting from 0.
public enum ProviderAnswerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The bytes are not one JSON value.
    case notJSON(detail: String)
    /// An object of the answer has a key twice (I-JSON, RFC 7493 §2.3): the answer is ambiguous.
    case duplicateKey(JSONDuplicateKey)
    /// The answer is JSON but not an object.
    case notAnObject(found: String)
    /// A required top-level field is missing.
    case missingField(String)
    /// A top-level field the answer to this request cannot have (often a typo).
    case unknownField(String)
    /// A top-level field has the wrong JSON type.
    case wrongType(field: String, expected: String, found: String)
    /// The timeline has no entries.
    case noEntries
    /// More entries than the limit; the runner reports this as `output-too-large`.
    case tooManyEntries(count: Int, limit: Int)
    /// An entry (nil: the single entry of a snapshot or placeholder) is not an object.
    case entryNotAnObject(entry: Int?, found: String)
    /// An entry lacks a required field.
    case entryMissingField(entry: Int?, field: String)
    /// An entry has a field the protocol does not know.
    case entryUnknownField(entry: Int?, field: String)
    /// An entry's field has the wrong JSON type or an invalid value; `expected` says what was expected.
    case entryInvalidField(entry: Int?, field: String, expected: String, found: String)
    /// An entry's date is a string but not an RFC 3339 date-time.
    case entryInvalidDate(entry: Int?, text: String)
    /// An entry's date is an RFC 3339 date-time outside `SupportedRange.dates`.
    case entryDateOutOfRange(entry: Int?, text: String)
    /// Two entries have the same date.
    case duplicateDate(entry: Int, date: String, sameAs: Int)
    /// `"policy"` is none of the three allowed shapes.
    case invalidPolicy(found: String)
    /// `"policy": {"after": ...}` is not an RFC 3339 date-time.
    case invalidPolicyDate(text: String)
    /// `"policy": {"after": ...}` is an RFC 3339 date-time outside `SupportedRange.dates`.
    case policyDateOutOfRange(text: String)
    /// An option of an `options` answer is malformed.
    case invalidOption(option: Int, problem: String)

    /// The runner's failure reason for this error: `output-too-large` for too many entries, else `invalid`.
    public var reason: RunFailureReason {
        if case .tooManyEntries = self { return .outputTooLarge }
        return .invalid
    }

    public var description: String {
        switch self {
        case .notJSON(let detail):
            return "answer is not JSON: \(detail)"
        case .duplicateKey(let duplicate):
            return "answer has \(duplicate)"
        case .notAnObject(let found):
            return "answer must be a JSON object, found \(found)"
        case .missingField(let field):
            return "answer has no \(quoted(field))"
        case .unknownField(let field):
            return "answer has an unknown field \(quoted(field))"
        case .wrongType(let field, let expected, let found):
            return "\(quoted(field)) must be \(expected), found \(found)"
        case .noEntries:
            return "\"entries\" is empty: a timeline needs at least one entry"
        case .tooManyEntries(let count, let limit):
            return "too many entries: \(count) (limit \(limit))"
        case .entryNotAnObject(let entry, let found):
            return "\(name(entry)) must be an object, found \(found)"
        case .entryMissingField(let entry, let field):
            return "\(name(entry)): missing \(quoted(field))"
        case .entryUnknownField(let entry, let field):
            return "\(name(entry)): unknown field \(quoted(field))"
        case .entryInvalidField(let entry, let field, let expected, let found):
            return "\(name(entry)): \(quoted(field)) must be \(expected), found \(found)"
        case .entryInvalidDate(let entry, let text):
            return "\(name(entry)): \"date\" is not an RFC 3339 date: \(quoted(text))"
        case .entryDateOutOfRange(let entry, let text):
            return "\(name(entry)): \"date\" must be \(SupportedRange.datesDescription), found \(quoted(text))"
        case .duplicateDate(let entry, let date, let sameAs):
            return "entry \(entry): duplicate date \(date) (same as entry \(sameAs))"
        case .invalidPolicy(let found):
            return "\"policy\" must be \"atEnd\", \"never\" or {\"after\": date}, found \(found)"
        case .invalidPolicyDate(let text):
            return "\"policy\": \"after\" is not an RFC 3339 date: \(quoted(text))"
        case .policyDateOutOfRange(let text):
            return "\"policy\": \"after\" must be \(SupportedRange.datesDescription), found \(quoted(text))"
        case .invalidOption(let option, let problem):
            return "option \(option): \(problem)"
        }
    }

    private func name(_ entry: Int?) -> String { entry.map { "entry \($0)" } ?? "entry" }

    private func quoted(_ text: String) -> String { JSONValue.string(text).jsonText() }
}
