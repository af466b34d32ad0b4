/// `Add`: a new widget of `kind`. Missing parameters are filled from the provider's `defaults`, then the manifest's;
/// the widget's `initial` run follows.
public enum AddMethod: VarlinkMethod {
    public static let method = ControlMethod.add

    public struct Parameters: Sendable, Hashable, Codable {
        public var kind: String
        /// The widget family (size); the manifest's first family when absent.
        public var family: String?
        public var parameters: [String: JSONValue]?

        public init(kind: String, family: String? = nil, parameters: [String: JSONValue]? = nil) {
            self.kind = kind
            self.family = family
            self.parameters = parameters
        }
    }

    public struct Reply: Sendable, Hashable, Codable {
        /// The new widget's id.
        public var id: String

        public init(id: String) {
            self.id = id
        }
    }
}
