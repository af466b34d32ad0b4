/// The files of images: each run's image directory, where a provider writes them, and the store, where the daemon
/// keeps the valid ones named by their SHA-256 until no entry refers to them. The real one is `ImageStore` (under the
/// state directory); the test kit's fake keeps both in memory.
public protocol ImageStoring: AnyObject {
    /// Makes a fresh, empty directory for one run's images and returns its absolute path.
    func makeRunDirectory() throws -> String
    /// Removes a run's directory if the provider left nothing in it, in one call; false when it holds something (or
    /// cannot be removed), for `removeRunDirectory` after its files are read.
    func removeRunDirectoryIfEmpty(_ path: String) -> Bool
    /// Removes a run's directory and whatever the provider left in it.
    func removeRunDirectory(_ path: String)
    /// Removes every run directory a previous process left (it died during runs).
    func removeRunDirectories()
    /// The names of the entries of a run's directory, those that are not valid UTF-8 left out (no content string can
    /// name them).
    func names(inRunDirectory path: String) -> [String]
    /// The bytes of `name` in a run's directory, at most `limit + 1` of them, or why it is refused: anything but a
    /// regular file of its own (a symbolic link, a directory, a FIFO, a device, a socket, a file with another hard
    /// link), or one that cannot be read.
    func readRunFile(_ name: String, inRunDirectory path: String, limit: Int) -> Result<[UInt8], RunFileRefusal>
    /// Stores `bytes` as the image `sha256` unless it is stored already; durable once it returns.
    func store(_ bytes: [UInt8], sha256: String) throws
    /// The stored bytes of image `sha256`, nil if it is not stored.
    func read(sha256: String) throws -> [UInt8]?
    /// Removes image `sha256`, if it is stored.
    func remove(sha256: String)
    /// The hashes of every stored image.
    func storedHashes() throws -> Set<String>
}

/// Why a file of a run's image directory is not read: what it is, in words that follow its name.
public struct RunFileRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
