import WidgetSchedulerRuntime

/// An `ImageStoring` in memory: run directories whose files a test puts there as a provider would (`put`), of any
/// kind the real store must refuse, and the stored images by hash.
public final class InMemoryImageStore: ImageStoring {
    /// A file of a run's directory, as a provider may leave it.
    public enum File: Sendable, Hashable {
        case regular([UInt8])
        case symbolicLink
        case directory
        case fifo
        /// A regular file with another hard link.
        case hardLinked([UInt8])
    }

    /// The live run directories and their files.
    public private(set) var runDirectories: [String: [String: File]] = [:]
    /// Every run directory ever made, in order.
    public private(set) var madeRunDirectories: [String] = []
    /// The stored images by hash.
    public private(set) var stored: [String: [UInt8]] = [:]
    /// How many times each hash was written.
    public private(set) var storeCounts: [String: Int] = [:]
    /// While set, `store` throws it.
    public var storeFailure: (any Error)?
    private var nextRun = 0

    public init() {}

    /// Puts `file` as `name` in the run directory `path`, as a provider would.
    public func put(_ file: File, named name: String, in path: String) {
        runDirectories[path]?[name] = file
    }

    /// Stores an image directly, as a previous process left it.
    public func leave(_ bytes: [UInt8], sha256: String) {
        stored[sha256] = bytes
    }

    public func makeRunDirectory() throws -> String {
        nextRun += 1
        let path = "/images/run-\(nextRun)"
        runDirectories[path] = [:]
        madeRunDirectories.append(path)
        return path
    }

    public func removeRunDirectoryIfEmpty(_ path: String) -> Bool {
        guard runDirectories[path]?.isEmpty == true else { return false }
        runDirectories[path] = nil
        return true
    }

    public func removeRunDirectory(_ path: String) {
        runDirectories[path] = nil
    }

    public func removeRunDirectories() {
        runDirectories = [:]
    }

    public func names(inRunDirectory path: String) -> [String] {
        (runDirectories[path] ?? [:]).keys.sorted()
    }

    public func readRunFile(_ name: String, inRunDirectory path: String,
                            limit: Int) -> Result<[UInt8], RunFileRefusal> {
        switch runDirectories[path]?[name] {
        case .regular(let bytes)?: return .success(Array(bytes.prefix(limit + 1)))
        case .symbolicLink?: return .failure(RunFileRefusal("is a symbolic link"))
        case .directory?: return .failure(RunFileRefusal("is a directory"))
        case .fifo?: return .failure(RunFileRefusal("is a FIFO"))
        case .hardLinked?: return .failure(RunFileRefusal("has 2 hard links: an image must be a file of its own"))
        case nil: return .failure(RunFileRefusal("cannot be read: No such file or directory"))
        }
    }

    public func store(_ bytes: [UInt8], sha256: String) throws {
        if let storeFailure { throw storeFailure }
        guard stored[sha256] == nil else { return }
        stored[sha256] = bytes
        storeCounts[sha256, default: 0] += 1
    }

    public func read(sha256: String) throws -> [UInt8]? {
        stored[sha256]
    }

    public func remove(sha256: String) {
        stored[sha256] = nil
    }

    public func storedHashes() throws -> Set<String> {
        Set(stored.keys)
    }
}
