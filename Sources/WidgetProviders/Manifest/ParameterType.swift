/// The type of a widget parameter, as a manifest's `type` key names it.
public enum ParameterType: String, Sendable, Hashable, CaseIterable, Codable {
    case string
    case integer
    case decimal
    case boolean
    /// One of the parameter's fixed options.
    case `enum`
    /// An RFC 3339 date-time, stored as UTC text.
    case date
    /// An absolute URL with a scheme.
    case url

    /// What a value of this type looks like, for error messages.
    var expectation: String {
        switch self {
        case .string: return "a string"
        case .integer: return "an integer"
        case .decimal: return "a decimal number"
        case .boolean: return "true or false"
        case .enum: return "one of the options"
        case .date: return "an RFC 3339 date from 1970 to 9999 such as 2026-01-05T08:00:00Z"
        case .url: return "an absolute URL such as https://example.com/feed"
        }
    }
}
