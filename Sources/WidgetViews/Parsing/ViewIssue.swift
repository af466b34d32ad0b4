/// One problem in a view document: where it is (`families.systemSmall.body.children[1].value`) and what is wrong.
public struct ViewIssue: Sendable, Hashable, CustomStringConvertible {
    /// The JSON path of the value at fault, from the document's root.
    public var path: String
    /// What is wrong, usually "expected …, found …".
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

/// Every problem found in a view document, in document order.
public struct ViewIssues: Error, Sendable, Hashable, CustomStringConvertible {
    public var issues: [ViewIssue]

    public init(_ issues: [ViewIssue]) {
        self.issues = issues
    }

    /// One problem per line.
    public var description: String { issues.map(\.description).joined(separator: "\n") }
}
