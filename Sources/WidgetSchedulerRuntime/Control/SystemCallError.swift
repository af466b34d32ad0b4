#if canImport(Glibc)
import Glibc
#endif

/// A failed system call: which one and its errno, with the C library's words for it.
public struct SystemCallError: Error, Sendable, Hashable, CustomStringConvertible {
    public var call: String
    public var errno: Int32

    public init(call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }

    public var description: String { "\(call): \(String(cString: strerror(errno)))" }
}

/// The process's effective uid.
func currentEffectiveUID() -> UInt32 { geteuid() }
