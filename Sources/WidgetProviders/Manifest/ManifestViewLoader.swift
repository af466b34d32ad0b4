import WidgetProtocol
import WidgetViews

/// Loads a kind's views for the manifest parser (`views = "weather.views.json"`, or the document inline) and checks
/// them with `ViewParser`: errors name the view file (or the manifest, for an inline document), and the path in the
/// document, family included (`families.systemSmall.body.children[1].value`).
enum ManifestViewLoader {
    /// The largest view file read.
    static let maximumFileSize = 256 * 1024
    /// The largest asset accepted (as an image an entry may carry, issue 35).
    static let maximumAssetSize = ImageType.maximumFileSize

    /// The validated document of `value` (a widget's `views`) and the file it came from, or nil after reporting why
    /// not through `fail`.
    static func load(
        _ value: JSONValue, key: String, manifestPath: String, families: [String], assets: String?,
        files: any ManifestFileSystem, fail: (ManifestError) -> Void
    ) -> (document: JSONValue, file: String?)? {
        let document: JSONValue
        let file: String?
        let errorFile: String
        let keyPrefix: String
        switch value {
        case .string(let name) where !name.isEmpty:
            let path = ManifestPaths.resolve(name, manifestPath: manifestPath)
            guard files.kind(of: path) == .regularFile, let read = files.read(path, limit: maximumFileSize + 1) else {
                fail(ManifestError(file: manifestPath, key: key, message: "expected a view file, but \(path) "
                    + "cannot be read"))
                return nil
            }
            guard read.size <= maximumFileSize else {
                fail(ManifestError(file: path, key: nil, message: "is larger than \(maximumFileSize / 1024) KiB"))
                return nil
            }
            guard let text = String(validating: read.bytes, as: UTF8.self), let parsed = JSONValue(jsonText: text)
            else {
                fail(ManifestError(file: path, key: nil, message: "is not JSON text (UTF-8)"))
                return nil
            }
            document = parsed
            file = path
            errorFile = path
            keyPrefix = ""
        case .object:
            document = value
            file = nil
            errorFile = manifestPath
            keyPrefix = key + "."
        default:
            fail(ManifestError(file: manifestPath, key: key, message: "expected the name of a view file such as "
                + "\"weather.views.json\", or a table with the views, found \(value.summary)"))
            return nil
        }
        var checker: (@Sendable (String) -> String?)?
        if let folder = assets { checker = { name in checkAsset(name, in: folder, files: files) } }
        let options = ViewParserOptions(declaredFamilies: families, hasAssetFolder: assets != nil, checkAsset: checker)
        switch ViewParser.parse(document, options: options) {
        case .success:
            return (document, file)
        case .failure(let failure):
            for issue in failure.issues {
                let issueKey = issue.path.isEmpty ? (keyPrefix.isEmpty ? nil : key) : keyPrefix + issue.path
                fail(ManifestError(file: errorFile, key: issueKey, message: issue.message))
            }
            return nil
        }
    }

    /// Nil when `name` is an image file inside `folder`, else what is wrong: missing, out of the folder through a
    /// symlink, too large, or not a PNG, JPEG or WebP by its first bytes.
    static func checkAsset(_ name: String, in folder: String, files: any ManifestFileSystem) -> String? {
        let path = folder + "/" + name
        guard files.kind(of: path) == .regularFile else { return "no file \"\(name)\" in the asset folder \(folder)" }
        guard let root = files.resolvedPath(folder), let resolved = files.resolvedPath(path),
              resolved.hasPrefix(root.hasSuffix("/") ? root : root + "/")
        else { return "\"\(name)\" leads out of the asset folder \(folder) (through a symlink)" }
        guard let read = files.read(path, limit: ImageType.signatureLength) else {
            return "\"\(name)\" cannot be read"
        }
        guard read.size <= maximumAssetSize else {
            return "\"\(name)\" is larger than \(maximumAssetSize / 1024 / 1024) MiB"
        }
        guard ImageType(signature: read.bytes) != nil else {
            return "\"\(name)\" is not a PNG, JPEG or WebP image (by its first bytes)"
        }
        return nil
    }
}
