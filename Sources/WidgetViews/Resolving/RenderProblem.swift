/// Something in an entry that a view could not draw: a field missing, or of a type the element cannot show. The
/// element draws a placeholder instead; hosts report problems once per entry, not once per frame.
public struct RenderProblem: Sendable, Hashable, CustomStringConvertible {
    /// The content path concerned.
    public var path: String
    /// What was wrong: `missing`, `expected a number, found "high"`.
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}
