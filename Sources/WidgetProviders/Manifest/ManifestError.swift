/// A problem with one manifest file: the file, the key at fault (if any) and what was expected.
///
/// `/etc/widget-scheduler/providers/weather.toml: "timeout": expected a positive number of seconds, found "soon"`
public struct ManifestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The manifest's path (or the directory's, for a directory that cannot be read).
    public var file: String
    /// The key path, e.g. `timeout` or `widget[0].parameters.location.type`; nil for whole-file problems.
    public var key: String?
    /// What is wrong, usually "expected …, found …".
    public var message: String

    public init(file: String, key: String?, message: String) {
        self.file = file
        self.key = key
        self.message = message
    }

    public var description: String {
        guard let key else { return "\(file): \(message)" }
        return "\(file): \"\(key)\": \(message)"
    }
}
