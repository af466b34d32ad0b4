#if canImport(Glibc)
import Glibc
#endif

/// The address of a Unix socket at a path, for `bind` and `connect`: the one place a `sockaddr_un` is filled, for the
/// daemon's control socket, its clients and the tests' sockets.
public struct UnixSocketAddress {
    /// The longest path a socket address holds, in bytes (`sun_path` less its terminating zero).
    public static let maximumPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// The socket's path.
    public let path: String
    private var address = sockaddr_un()

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

    /// Calls `body` with the address as a `sockaddr` and its length, and returns its result.
    public func withSocketAddress<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        withUnsafePointer(to: address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
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
