import Foundation

/// Loads every `*.toml` manifest from a list of directories.
public enum ManifestLoader {
    /// The directories read when none are given: the packaged manifests, then the administrator's, which override a
    /// file of the same name.
    public static let defaultDirectories = ["/usr/share/widget-scheduler/providers", "/etc/widget-scheduler/providers"]

    /// Loads the manifests of `directories`.
    ///
    /// A file in a later directory replaces a file of the same name in an earlier one. A directory that does not
    /// exist is skipped (and listed in the set's `directories` as missing). One bad file never stops the others: its
    /// errors are collected and the rest load. A kind
    /// declared by two files is an error naming both; the file that comes first by name keeps it.
    public static func load(directories: [String]) -> ManifestSet {
        var set = ManifestSet()
        // Collected apart and set once: the set indexes its manifests' kinds at every change.
        var manifests: [ProviderManifest] = []
        var pathByFileName: [String: String] = [:]
        for directory in directories {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
                set.directories.append(ManifestDirectory(path: directory, state: .missing))
                continue
            }
            guard isDirectory.boolValue else {
                set.errors.append(ManifestError(file: directory, key: nil, message: "is not a directory"))
                set.directories.append(ManifestDirectory(path: directory, state: .notADirectory))
                continue
            }
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: directory)
            } catch {
                set.errors.append(ManifestError(file: directory, key: nil, message: "cannot be read: \(error)"))
                set.directories.append(ManifestDirectory(path: directory, state: .unreadable))
                continue
            }
            let manifestNames = names.filter { $0.hasSuffix(".toml") && !$0.hasPrefix(".") }
            for name in manifestNames {
                pathByFileName[name] = (directory as NSString).appendingPathComponent(name)
            }
            set.directories.append(ManifestDirectory(path: directory, state: .read(files: manifestNames.count)))
        }
        var fileByKind: [String: String] = [:]
        for name in pathByFileName.keys.sorted() {
            guard let path = pathByFileName[name] else { continue }
            switch load(file: path) {
            case .failure(let errors):
                set.errors.append(contentsOf: errors.errors)
            case .success(let manifest):
                let clashes = manifest.widgets.enumerated().filter { fileByKind[$0.element.kind] != nil }
                guard clashes.isEmpty else {
                    for (index, widget) in clashes {
                        set.errors.append(ManifestError(
                            file: path, key: "widget[\(index)].kind",
                            message: "kind \"\(widget.kind)\" is already served by \(fileByKind[widget.kind] ?? "")"
                        ))
                    }
                    continue
                }
                for widget in manifest.widgets { fileByKind[widget.kind] = path }
                manifests.append(manifest)
            }
        }
        set.manifests = manifests
        return set
    }

    /// Loads and parses one manifest file.
    public static func load(file path: String) -> Result<ProviderManifest, ManifestErrors> {
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(ManifestErrors([ManifestError(file: path, key: nil, message: "cannot be read")]))
        }
        guard let text = String(data: data, encoding: .utf8) else {
            return .failure(ManifestErrors([ManifestError(file: path, key: nil, message: "is not UTF-8 text")]))
        }
        return ManifestParser.parse(text, path: path)
    }
}
