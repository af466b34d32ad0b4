/// What a provider is asked on a caller's behalf rather than for a widget's schedule: the choices of a dynamic
/// parameter (`Options`), the defaults of a widget being added. Two requests with the same key get the same answer,
/// so they share one run.
public struct ProviderRequestKey: Sendable, Hashable, CustomStringConvertible {
    /// The kind whose provider is asked.
    public var kind: String
    /// What is asked, with everything the answer depends on, as canonical text (`options city "par"`).
    public var question: String

    public init(kind: String, question: String) {
        self.kind = kind
        self.question = question
    }

    public var description: String { "\(kind): \(question)" }
}
