import Foundation

/// When a timeline asks to be reloaded, as WidgetKit's `TimelineReloadPolicy`.
public enum ReloadPolicy: Sendable, Hashable, Codable {
    /// After the last entry's date passes.
    case atEnd
    /// At the given wall-clock date.
    case after(Date)
    /// Only when something asks for a reload.
    case never

    /// A short name for logs and the journal's `POLICY` field: `atEnd`, `after`, `never`.
    public var name: String {
        switch self {
        case .atEnd: return "atEnd"
        case .after: return "after"
        case .never: return "never"
        }
    }

    /// The policy in a line of text: `atEnd`, `never`, or `after` and its RFC 3339 date.
    public var summary: String {
        if case .after(let date) = self { return "after \(RFC3339.string(from: date))" }
        return name
    }
}
