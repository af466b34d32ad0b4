import Glibc
import SystemdKit

/// A datagram socket standing in for systemd's notification socket: bound in a fresh temporary directory and
/// exported as NOTIFY_SOCKET until `close()`.
final class FakeNotifySocket {
    let directory: String
    let path: String
    let fd: Int32

    init() throws {
        var template = Array("/tmp/systemdkit-notify-XXXXXX".utf8CString)
        guard let created = mkdtemp(&template) else {
            throw SystemdError("mkdtemp", code: errno)
        }
        directory = String(cString: created)
        path = directory + "/notify"
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else {
            throw SystemdError("socket", code: errno)
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (index, byte) in path.utf8.enumerated() where index < bytes.count - 1 {
                bytes[index] = byte
            }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else {
            throw SystemdError("bind", code: errno, detail: path)
        }
        setenv("NOTIFY_SOCKET", path, 1)
    }

    /// The next datagram, or nil when none arrives within `timeoutMilliseconds`.
    func receive(timeoutMilliseconds: Int32 = 2_000) -> String? {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, timeoutMilliseconds) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4_096)
        let count = recv(fd, &buffer, buffer.count, 0)
        guard count >= 0 else { return nil }
        return String(decoding: buffer.prefix(count), as: UTF8.self)
    }

    func close() {
        unsetenv("NOTIFY_SOCKET")
        Glibc.close(fd)
        unlink(path)
        rmdir(directory)
    }
}
