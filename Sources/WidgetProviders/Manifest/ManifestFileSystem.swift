import Foundation

/// The files a manifest names besides itself: its view files and its asset folder. Behind a protocol so the parser's
/// rules are tested on a fake as well as on real directories (symlinks included).
public protocol ManifestFileSystem: Sendable {
    /// What is at `path`, following symlinks; nil when nothing is.
    func kind(of path: String) -> ManifestFileKind?
    /// The canonical path of `path` (symlinks resolved), nil when it does not exist.
    func resolvedPath(_ path: String) -> String?
    /// The first `limit` bytes of the file at `path` and its size, nil when it cannot be read.
    func read(_ path: String, limit: Int) -> (bytes: [UInt8], size: Int)?
}

/// What a path names.
public enum ManifestFileKind: Sendable, Hashable {
    case regularFile, directory, other
}

/// The real file system.
public struct LocalManifestFileSystem: ManifestFileSystem {
    public init() {}

    public func kind(of path: String) -> ManifestFileKind? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return .regularFile
        case S_IFDIR: return .directory
        default: return .other
        }
    }

    public func resolvedPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    public func read(_ path: String, limit: Int) -> (bytes: [UInt8], size: Int)? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        let size = Int(clamping: status.st_size)
        var bytes = [UInt8](repeating: 0, count: min(max(limit, 0), size))
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            filled += count
        }
        return (Array(bytes[..<filled]), size)
    }
}
