/// `DataList`: every value of a group, by key.
public enum DataListMethod: VarlinkMethod {
    public static let method = ControlMethod.dataList

    public struct Parameters: Sendable, Hashable, Codable {
        public var group: String

        public init(group: String) {
            self.group = group
        }
    }

    public struct Reply: Sendable, Hashable, Codable {
        public var items: [DataItem]

        public init(items: [DataItem]) {
            self.items = items
        }
    }
}
