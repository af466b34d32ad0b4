import Foundation

/// One value of the widget's shared group data, as the daemon stores it: `DATA_DIRECTORY/KEY` holds
/// `{"value": ..., "updatedAt": "<RFC 3339>"}`.
public struct GroupValue: Sendable, Hashable {
    public var value: ParameterValue
    /// When the app wrote it; compare with `Context.now` to decide whether it is stale.
    public var updatedAt: Date

    public init(value: ParameterValue, updatedAt: Date) {
        self.value = value
        self.updatedAt = updatedAt
    }

    /// Reads the value stored for `key` in `directory`, or nil if there is none or it is unreadable.
    public static func read(key: String, in directory: URL) -> GroupValue? {
        guard !key.contains("/"), let data = try? Data(contentsOf: directory.appendingPathComponent(key)),
              case .object(let object)? = try? JSONDecoder().decode(ParameterValue.self, from: data),
              let value = object["value"], let updatedAt = object["updatedAt"]?.dateValue
        else { return nil }
        return GroupValue(value: value, updatedAt: updatedAt)
    }
}
