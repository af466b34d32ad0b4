import Foundation
import Glibc
import WidgetProtocol

/// A listening Unix stream socket at a fresh path under /tmp, for tests that play the daemon's end of a connection
/// (a fake daemon for `ControlClient`, a server for the benchmark client). Closed and unlinked when released.
public final class UnixListener: @unchecked Sendable {
    /// Why the socket could not be made.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The socket's path, for the client to connect to.
    public let path: String
    /// The listening descriptor.
    public let descriptor: Int32

    /// Binds and listens at `/tmp/PREFIX-XXXXXXXX` (short: a socket path has at most 107 bytes).
    public init(prefix: String) throws {
        let path = "/tmp/\(prefix)-" + String(UUID().uuidString.prefix(8))
        // Stored only once listening, as `RawVarlinkConnection` does: a class whose stored properties are all set runs
        // its deinit when init throws, which would close the descriptor a second time.
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket(): errno \(errno)") }
        guard UnixSocketAddress(path: path)?.bind(fd) == 0, listen(fd, 4) == 0 else {
            let code = errno
            close(fd)
            throw Failure(description: "bind/listen \(path): errno \(code)")
        }
        self.path = path
        descriptor = fd
    }

    /// The next connection's descriptor (waits for one); -1 on failure.
    public func accept() -> Int32 {
        Glibc.accept(descriptor, nil, nil)
    }

    deinit {
        close(descriptor)
        unlink(path)
    }
}
