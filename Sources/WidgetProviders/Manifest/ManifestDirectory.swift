/// One directory the manifests were looked for in, and what was found there.
public struct ManifestDirectory: Sendable, Hashable {
    public enum State: Sendable, Hashable {
        /// Read; it held this many manifest files (`*.toml`), good or bad.
        case read(files: Int)
        /// It does not exist.
        case missing
        /// Something other than a directory is at its path.
        case notADirectory
        /// It exists but could not be listed.
        case unreadable
    }

    public var path: String
    public var state: State

    public init(path: String, state: State) {
        self.path = path
        self.state = state
    }

    /// "read", "missing", "not a directory" or "unreadable".
    public var stateName: String {
        switch state {
        case .read: return "read"
        case .missing: return "missing"
        case .notADirectory: return "not a directory"
        case .unreadable: return "unreadable"
        }
    }

    /// The number of manifest files read from it: 0 unless it was read.
    public var files: Int {
        if case .read(let files) = state { return files }
        return 0
    }
}
