import Foundation
import Glibc
import WidgetProtocol

/// The image files: `STATE/images/<sha256>`, one file per stored image (0600), and `RUNTIME/image-runs/run-XXXXXX/`,
/// one directory per run (0700), removed when the run has been read.
///
/// The run directories live in the runtime directory, not the state directory: they hold nothing that outlives a run
/// (the start-up sweep removes what a death left), and a runtime directory is a tmpfs wherever the daemon is
/// installed (systemd's `RuntimeDirectory=`, `$XDG_RUNTIME_DIR`), where making and removing one costs a run no disk
/// metadata write; on a disk mounted with online discard, the removal of each run's directory blocked the event loop.
/// A provider can write only in its own run's directory (the sandbox's run root, `ProviderSandbox.runRoot`). Files
/// there are read as a guest's: never through a symbolic link, never blocking on a FIFO or a device, never past the
/// limit, and only a regular file with one link (a hard link to a file elsewhere is refused, whatever it points at).
/// What is stored is the daemon's own copy of the bytes it validated, written under a temporary name, synced and
/// renamed into place, so a kill at any moment leaves either no file or a whole one, and nothing the provider keeps
/// open can change a stored image.
public final class ImageStore: ImageStoring {
    /// `STATE/images/`: the stored images.
    public let imagesDirectory: URL
    /// `RUNTIME/image-runs/`: the runs' directories, the sandbox's run root.
    public let runsDirectory: URL

    /// The store with its images under `stateDirectory` and its runs' directories under `runtimeDirectory`;
    /// `prepare()` makes them.
    public init(stateDirectory: URL, runtimeDirectory: URL) {
        imagesDirectory = stateDirectory.appendingPathComponent("images", isDirectory: true)
        runsDirectory = runtimeDirectory.appendingPathComponent("image-runs", isDirectory: true)
    }

    /// Makes both directories (0700) where missing, and the runtime directory above the runs' (with the default
    /// mode, as the daemon makes it for its socket).
    public func prepare() throws {
        try FileManager.default.createDirectory(at: runsDirectory.deletingLastPathComponent(),
                                                withIntermediateDirectories: true)
        for directory in [imagesDirectory, runsDirectory] {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
    }

    public func makeRunDirectory() throws -> String {
        var template = Array((runsDirectory.path + "/run-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard made != nil else { throw Self.error("cannot make a run's image directory in", runsDirectory.path) }
        return Self.text(template)
    }

    public func removeRunDirectoryIfEmpty(_ path: String) -> Bool {
        // rmdir never follows a link, and a run cannot replace its directory: it has no right in the runs' root.
        rmdir(path) == 0
    }

    public func removeRunDirectory(_ path: String) {
        let parent = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let parentDescriptor = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard parentDescriptor >= 0 else { return }
        defer { close(parentDescriptor) }
        Self.removeTree(name, in: parentDescriptor, depth: 0)
    }

    public func removeRunDirectories() {
        let descriptor = open(runsDirectory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        for name in Self.entries(of: descriptor) { Self.removeTree(name, in: descriptor, depth: 0) }
    }

    public func names(inRunDirectory path: String) -> [String] {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return [] }
        defer { close(descriptor) }
        return Self.entries(of: descriptor)
    }

    public func readRunFile(_ name: String, inRunDirectory path: String,
                            limit: Int) -> Result<[UInt8], RunFileRefusal> {
        let directory = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard directory >= 0 else { return .failure(RunFileRefusal("cannot be read: \(Self.reason(errno))")) }
        defer { close(directory) }
        // Looked at without following a link or opening anything, then opened without following a link or blocking,
        // and looked at again through the descriptor: what is read is what was checked.
        var info = stat()
        guard fstatat(directory, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
            return .failure(RunFileRefusal("cannot be read: \(Self.reason(errno))"))
        }
        if let refusal = Self.refusal(info) { return .failure(refusal) }
        let descriptor = openat(directory, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ELOOP { return .failure(RunFileRefusal("is a symbolic link")) }
            return .failure(RunFileRefusal("cannot be read: \(Self.reason(errno))"))
        }
        defer { close(descriptor) }
        guard fstat(descriptor, &info) == 0 else {
            return .failure(RunFileRefusal("cannot be read: \(Self.reason(errno))"))
        }
        if let refusal = Self.refusal(info) { return .failure(refusal) }
        return Self.readAll(descriptor, atMost: limit + 1)
            .mapError { RunFileRefusal("cannot be read: \(Self.reason($0.code))") }
    }

    /// A filled-in mkdtemp or mkstemp template without its terminating NUL.
    private static func text(_ template: [CChar]) -> String {
        String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public func store(_ bytes: [UInt8], sha256: String) throws {
        let final = path(of: sha256)
        var info = stat()
        if lstat(final, &info) == 0, info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) == bytes.count { return }
        var template = Array((imagesDirectory.path + "/.storing-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        if descriptor >= 0 { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        guard descriptor >= 0 else { throw Self.error("cannot store an image in", imagesDirectory.path) }
        let temporary = Self.text(template)
        var written = 0
        var failure: Int32 = 0
        bytes.withUnsafeBytes { buffer in
            while written < buffer.count {
                let count = write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                written += count
            }
        }
        // Synced before the rename, and the directory after it: the state that names the image is committed after
        // this returns, so a crash never leaves it naming a file the disk lost.
        if failure == 0, fsync(descriptor) != 0 { failure = errno }
        close(descriptor)
        if failure == 0, rename(temporary, final) != 0 { failure = errno }
        guard failure == 0 else {
            unlink(temporary)
            errno = failure
            throw Self.error("cannot store image \(sha256) in", imagesDirectory.path)
        }
        let directory = open(imagesDirectory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
    }

    public func read(sha256: String) throws -> [UInt8]? {
        guard ImageMethod.isSHA256(sha256) else { return nil }
        let descriptor = open(path(of: sha256), O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw Self.error("cannot read image \(sha256) in", imagesDirectory.path)
        }
        defer { close(descriptor) }
        switch Self.readAll(descriptor, atMost: ImageRules.maximumImageBytes + 1) {
        case .success(let bytes): return bytes
        case .failure(let failure):
            errno = failure.code
            throw Self.error("cannot read image \(sha256) in", imagesDirectory.path)
        }
    }

    public func remove(sha256: String) {
        guard ImageMethod.isSHA256(sha256) else { return }
        unlink(path(of: sha256))
    }

    /// Every stored image's hash; leftovers of a store a kill interrupted (`.storing-*`) are removed on the way.
    public func storedHashes() throws -> Set<String> {
        let descriptor = open(imagesDirectory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return [] }
            throw Self.error("cannot list the images in", imagesDirectory.path)
        }
        defer { close(descriptor) }
        var hashes = Set<String>()
        for name in Self.entries(of: descriptor) {
            if ImageMethod.isSHA256(name) {
                hashes.insert(name)
            } else if name.hasPrefix(".storing-") {
                unlinkat(descriptor, name, 0)
            }
        }
        return hashes
    }

    private func path(of sha256: String) -> String {
        imagesDirectory.path + "/" + sha256
    }

    /// What a file of a run's directory is, when it is not a regular file of its own.
    private static func refusal(_ info: stat) -> RunFileRefusal? {
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            guard info.st_nlink == 1 else {
                return RunFileRefusal("has \(info.st_nlink) hard links: an image must be a file of its own")
            }
            return nil
        case S_IFLNK: return RunFileRefusal("is a symbolic link")
        case S_IFDIR: return RunFileRefusal("is a directory")
        case S_IFIFO: return RunFileRefusal("is a FIFO")
        case S_IFSOCK: return RunFileRefusal("is a socket")
        case S_IFCHR, S_IFBLK: return RunFileRefusal("is a device")
        default: return RunFileRefusal("is not a regular file")
        }
    }

    /// Reads at most `maximum` bytes of `descriptor`; a FIFO or a device never gets here, so a read never blocks.
    private static func readAll(_ descriptor: Int32, atMost maximum: Int) -> Result<[UInt8], ReadFailure> {
        var bytes = [UInt8](repeating: 0, count: min(maximum, 64 << 10))
        var count = 0
        while count < maximum {
            if count == bytes.count {
                bytes.append(contentsOf: repeatElement(0, count: min(maximum, 2 * count) - count))
            }
            let read = bytes.withUnsafeMutableBytes {
                Glibc.read(descriptor, $0.baseAddress! + count, $0.count - count)
            }
            if read < 0 {
                if errno == EINTR { continue }
                return .failure(ReadFailure(code: errno))
            }
            if read == 0 { break }
            count += read
        }
        bytes.removeSubrange(count...)
        return .success(bytes)
    }

    /// The names in a directory (without `.` and `..`); names that are not UTF-8 are left out.
    private static func entries(of descriptor: Int32) -> [String] {
        let copy = dup(descriptor)
        guard copy >= 0, let stream = fdopendir(copy) else {
            if copy >= 0 { close(copy) }
            return []
        }
        defer { closedir(stream) }
        rewinddir(stream)
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw -> String? in
                let bytes = raw.bindMemory(to: UInt8.self)
                let length = bytes.firstIndex(of: 0) ?? bytes.count
                return String(validating: UnsafeBufferPointer(rebasing: bytes[..<length]), as: UTF8.self)
            }
            guard let name, name != ".", name != ".." else { continue }
            names.append(name)
        }
        return names
    }

    /// Removes `name` in `parent` and, for a directory, what it holds, without following links. A provider cannot
    /// make directories in its run's directory under the sandbox; without one, nesting deeper than a few levels is
    /// left for the next start's sweep.
    private static func removeTree(_ name: String, in parent: Int32, depth: Int) {
        var info = stat()
        guard fstatat(parent, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            unlinkat(parent, name, 0)
            return
        }
        guard depth < 16 else { return }
        // A directory the provider made unreadable is its owner's (the daemon's uid) to open again.
        fchmodat(parent, name, 0o700, 0)
        let descriptor = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        if descriptor >= 0 {
            for entry in entries(of: descriptor) { removeTree(entry, in: descriptor, depth: depth + 1) }
            close(descriptor)
        }
        unlinkat(parent, name, AT_REMOVEDIR)
    }

    private static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    private static func error(_ what: String, _ path: String) -> ImageStoreError {
        ImageStoreError(description: "\(what) \(path): \(reason(errno))")
    }
}

/// The errno of a failed read.
private struct ReadFailure: Error {
    var code: Int32
}

/// A failure of the image files, in words: what could not be done, where, and the system's reason.
public struct ImageStoreError: Error, CustomStringConvertible {
    public var description: String
}
