/// `Configure`: changes a widget's parameters (validated against the manifest) and triggers its budget-exempt
/// `configuration` run.
public enum ConfigureMethod: VarlinkMethod {
    public static let method = ControlMethod.configure

    public struct Parameters: Sendable, Hashable, Codable {
        public var id: String
        /// The parameters to change; the others keep their values.
        public var parameters: [String: JSONValue]

        public init(id: String, parameters: [String: JSONValue]) {
            self.id = id
            self.parameters = parameters
        }
    }

    public struct Reply: Sendable, Hashable, Codable {
        /// The configuration run's decision.
        public var decision: ReloadDecision

        public init(decision: ReloadDecision) {
            self.decision = decision
        }
    }
}
