import Foundation
import Glibc
import WidgetViews

/// An image of a provider's asset folder, read for a page: only a valid asset name (`AssetName`), only a regular file
/// that stays inside the folder once symlinks are resolved, at most `ImageType.maximumFileSize`, and only a PNG, JPEG
/// or WebP by its first bytes, served with that type. The daemon checked the manifest's assets when it loaded; the
/// folder may have changed since, so the host checks again at each read.
struct AssetFile: Sendable, Equatable {
    var bytes: [UInt8]
    var type: ImageType

    /// Why an asset cannot be served.
    enum Refusal: Error, Equatable {
        case badName(String)
        case notFound
        case outsideFolder
        case tooLarge
        case notAnImage
    }

    static func read(_ name: String, in folder: String) -> Result<AssetFile, Refusal> {
        if let problem = AssetName.problem(name) { return .failure(.badName(problem)) }
        let path = folder + "/" + name
        guard let root = realpath(folder), let resolved = realpath(path) else { return .failure(.notFound) }
        guard resolved.hasPrefix(root.hasSuffix("/") ? root : root + "/") else { return .failure(.outsideFolder) }
        // Non-blocking, so a FIFO put in the folder cannot hold the request.
        let descriptor = open(resolved, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else { return .failure(.notFound) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return .failure(.notFound) }
        guard status.st_size <= ImageType.maximumFileSize else { return .failure(.tooLarge) }
        let data: Data
        do {
            data = try handle.read(upToCount: ImageType.maximumFileSize + 1) ?? Data()
        } catch {
            return .failure(.notFound)
        }
        guard data.count <= ImageType.maximumFileSize else { return .failure(.tooLarge) }
        let bytes = [UInt8](data)
        guard let type = ImageType(signature: bytes) else { return .failure(.notAnImage) }
        return .success(AssetFile(bytes: bytes, type: type))
    }

    /// The resolved absolute path of `path`, or nil.
    private static func realpath(_ path: String) -> String? {
        guard let resolved = Glibc.realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
