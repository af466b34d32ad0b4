import Foundation

/// One value of a group's shared data (the App Groups equivalent), with the time it was written.
public struct GroupDataRecord: Sendable, Hashable {
    /// The group name, e.g. `weather`.
    public var group: String
    /// The key within the group.
    public var key: String
    /// The value, stored verbatim.
    public var value: String
    /// When the value was written.
    public var updatedAt: Date

    public init(group: String, key: String, value: String, updatedAt: Date) {
        self.group = group
        self.key = key
        self.value = value
        self.updatedAt = updatedAt
    }
}
