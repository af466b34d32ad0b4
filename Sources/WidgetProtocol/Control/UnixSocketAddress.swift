#if canImport(Glibc)
import Glibc
#endif

/// The address of a Unix socket at a path, for `bind` and `connect`: the one place a `sockaddr_un` is filled, for the
/// daemon's control socket, its clients and the tests' sockets.
public struct UnixSocketAddress {
    /// The longest path a socket address holds, in bytes (`sun_path` less its terminating zero).
    public static let maximumPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// The socket's path; for an abstract name, the name after its leading NUL.
    public let path: String
    private var address = sockaddr_un()
    // Filesystem paths use the whole structure; an abstract name only the bytes it has (Linux, unix(7)).
    private var length = socklen_t(MemoryLayout<sockaddr_un>.size)

    /// The address of `path`; nil when the path is longer than `maximumPathLength`.
    public init?(path: String) {
        let bytes = Array(path.utf8)
        guard bytes.count <= Self.maximumPathLength else { return nil }
        self.path = path
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
    }

    /// The address of the abstract socket `name` (Linux: no file, gone with its last descriptor); nil when the name
    /// is longer than `maximumPathLength`.
    public init?(abstractName name: String) {
        let bytes = [UInt8(0)] + Array(name.utf8)
        guard bytes.count <= Self.maximumPathLength + 1 else { return nil }
        self.path = name
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
    }

    /// Calls `body` with the address as a `sockaddr` and its length, and returns its result.
    public func withSocketAddress<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        withUnsafePointer(to: address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }

    /// `bind(2)` of `fd` to this address: 0, or -1 with errno.
    public func bind(_ fd: Int32) -> Int32 {
        withSocketAddress { Glibc.bind(fd, $0, $1) }
    }

    /// `connect(2)` of `fd` to this address: 0, or -1 with errno.
    public func connect(_ fd: Int32) -> Int32 {
        withSocketAddress { Glibc.connect(fd, $0, $1) }
    }
}
