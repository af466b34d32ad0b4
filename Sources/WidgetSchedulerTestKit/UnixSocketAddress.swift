import Glibc

/// Calls `body` with the `sockaddr_un` of `path` (for `bind` or `connect`) and returns its result; nil when the path
/// does not fit a socket address.
func withUnixSocketAddress<Result>(
    _ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result
) -> Result? {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        raw.copyBytes(from: bytes)
        raw[bytes.count] = 0
    }
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
}
