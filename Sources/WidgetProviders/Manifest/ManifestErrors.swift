/// Every error found in one rejected manifest file.
public struct ManifestErrors: Error, Sendable, Hashable, CustomStringConvertible {
    /// At least one error, in the order found.
    public var errors: [ManifestError]

    public init(_ errors: [ManifestError]) {
        self.errors = errors
    }

    /// One error per line.
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}
