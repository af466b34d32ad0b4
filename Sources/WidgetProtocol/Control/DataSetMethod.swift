import Foundation

/// `DataSet`: writes a value into a shared group (App Groups), optionally reloading a kind after it, as an app's
/// "save, then `reloadTimelines(ofKind:)`".
public enum DataSetMethod: VarlinkMethod {
    public static let method = ControlMethod.dataSet

    public struct Parameters: Sendable, Hashable, Codable {
        public var group: String
        public var key: String
        public var value: String
        public var reloadKind: String?

        public init(group: String, key: String, value: String, reloadKind: String? = nil) {
            self.group = group
            self.key = key
            self.value = value
            self.reloadKind = reloadKind
        }
    }

    public struct Reply: Sendable, Hashable, Codable {
        public var updatedAt: Date
        /// The reload's decisions when `reloadKind` was given; empty otherwise.
        public var decisions: [ReloadDecision]

        public init(updatedAt: Date, decisions: [ReloadDecision] = []) {
            self.updatedAt = updatedAt
            self.decisions = decisions
        }
    }
}
