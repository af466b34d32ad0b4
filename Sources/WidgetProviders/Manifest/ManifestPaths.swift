import Foundation

/// Paths a manifest names, resolved against the manifest's own directory.
enum ManifestPaths {
    /// `path` if absolute, else relative to the directory of the manifest at `manifestPath`; `.` and `..` removed
    /// without resolving symlinks, so the path stays where the manifest says.
    static func resolve(_ path: String, manifestPath: String) -> String {
        if path.hasPrefix("/") { return lexicallyNormalized(path) }
        let directory = (manifestPath as NSString).deletingLastPathComponent
        // A manifest named by a relative path (`run-provider examples/x.toml`) is relative to the working directory.
        let base = directory.hasPrefix("/") ? directory : FileManager.default.currentDirectoryPath + "/" + directory
        return lexicallyNormalized(base + "/" + path)
    }

    /// Removes `.` and `..` components without resolving symlinks.
    static func lexicallyNormalized(_ path: String) -> String {
        var components: [Substring] = []
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch component {
            case ".": continue
            case "..": if !components.isEmpty { components.removeLast() }
            default: components.append(component)
            }
        }
        return "/" + components.joined(separator: "/")
    }
}
