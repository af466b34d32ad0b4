import Foundation

/// The home screen's layout on disk: `layout.json` in the state directory, written whole to a temporary file,
/// flushed and renamed over the old one, so a crash leaves either layout, never half of one.
public struct LayoutFile: Sendable {
    public let url: URL

    public init(directory: URL) {
        url = directory.appendingPathComponent("layout.json")
    }

    /// The saved layout; an empty one when there is none. A file that cannot be read is set aside as
    /// `layout.json.unreadable` (so nothing is lost) and reported in `problem`.
    public func load() -> (layout: HomeLayout, problem: String?) {
        guard let data = FileManager.default.contents(atPath: url.path) else { return (HomeLayout(), nil) }
        do {
            return (try JSONDecoder().decode(HomeLayout.self, from: data), nil)
        } catch {
            let aside = url.appendingPathExtension("unreadable")
            try? FileManager.default.removeItem(at: aside)
            try? FileManager.default.moveItem(at: url, to: aside)
            return (HomeLayout(), "\(url.path): cannot be read (\(error)); set aside as \(aside.lastPathComponent), "
                + "starting with an empty layout")
        }
    }

    /// Writes `layout` durably.
    public func save(_ layout: HomeLayout) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(layout)
        let directory = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let temporary = directory.appendingPathComponent(".layout.json.\(getpid()).tmp")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw LayoutFileError(path: temporary.path, call: "open", code: errno) }
        var written = 0
        let failure: LayoutFileError? = data.withUnsafeBytes { bytes in
            while written < bytes.count {
                let count = write(fd, bytes.baseAddress! + written, bytes.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    return LayoutFileError(path: temporary.path, call: "write", code: errno)
                }
                written += count
            }
            return fsync(fd) == 0 ? nil : LayoutFileError(path: temporary.path, call: "fsync", code: errno)
        }
        close(fd)
        if let failure {
            unlink(temporary.path)
            throw failure
        }
        guard rename(temporary.path, url.path) == 0 else {
            let error = LayoutFileError(path: url.path, call: "rename", code: errno)
            unlink(temporary.path)
            throw error
        }
        // The rename is durable once the directory is.
        let directoryFD = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryFD >= 0 {
            fsync(directoryFD)
            close(directoryFD)
        }
    }
}

/// A system call on the layout file failed.
public struct LayoutFileError: Error, CustomStringConvertible {
    public var path: String
    public var call: String
    public var code: Int32

    public var description: String { "\(path): \(call): \(String(cString: strerror(code)))" }
}
