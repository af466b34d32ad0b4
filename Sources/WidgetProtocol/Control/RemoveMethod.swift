/// `Remove`: deletes a widget, its timeline and its history.
public enum RemoveMethod: VarlinkMethod {
    public static let method = ControlMethod.remove

    public struct Parameters: Sendable, Hashable, Codable {
        public var id: String

        public init(id: String) {
            self.id = id
        }
    }

    public typealias Reply = NoParameters
}
