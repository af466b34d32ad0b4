/// `DataGet`: one value of a group; `UnknownKey` when there is none.
public enum DataGetMethod: VarlinkMethod {
    public static let method = ControlMethod.dataGet

    public struct Parameters: Sendable, Hashable, Codable {
        public var group: String
        public var key: String

        public init(group: String, key: String) {
            self.group = group
            self.key = key
        }
    }

    public typealias Reply = DataItem
}
