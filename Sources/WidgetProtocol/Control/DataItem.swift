import Foundation

/// One value of a shared data group, with when it was written.
public struct DataItem: Sendable, Hashable, Codable {
    public var key: String
    public var value: String
    public var updatedAt: Date

    public init(key: String, value: String, updatedAt: Date) {
        self.key = key
        self.value = value
        self.updatedAt = updatedAt
    }
}
