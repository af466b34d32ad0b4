import CSystemd
import Glibc
import SystemdKit
import WidgetProtocol

/// A datagram socket standing in for systemd's notification socket: bound in a fresh temporary directory and
/// exported as NOTIFY_SOCKET until `close()`.
///
/// Other test suites in the same test process may spawn children (which inherit NOTIFY_SOCKET) while it is set, so
/// only datagrams sent by this process count: the socket asks for SO_PASSCRED and checks the sender's pid.
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
        guard let address = UnixSocketAddress(path: path) else {
            throw SystemdError("bind", code: ENAMETOOLONG, detail: path)
        }
        guard address.bind(fd) == 0 else {
            throw SystemdError("bind", code: errno, detail: path)
        }
        var enabled: Int32 = 1
        guard setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &enabled, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw SystemdError("setsockopt", code: errno, detail: "SO_PASSCRED")
        }
        setenv("NOTIFY_SOCKET", path, 1)
    }

    /// The next datagram this process sent, or nil when none arrives within `timeoutMilliseconds`.
    func receive(timeoutMilliseconds: Int32 = 2_000) -> String? {
        let deadline = EventClock.monotonic.currentMicroseconds + UInt64(timeoutMilliseconds) * 1_000
        while true {
            let now = EventClock.monotonic.currentMicroseconds
            let remaining = deadline > now ? Int32((deadline - now) / 1_000) : 0
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, remaining) == 1 else { return nil }
            var buffer = [UInt8](repeating: 0, count: 4_096)
            var sender: Int32 = -1
            let count = csystemd_recv_with_sender_pid(fd, &buffer, buffer.count, &sender)
            guard count >= 0 else { return nil }
            if sender == getpid() {
                return String(decoding: buffer.prefix(count), as: UTF8.self)
            }
        }
    }

    func close() {
        unsetenv("NOTIFY_SOCKET")
        Glibc.close(fd)
        unlink(path)
        rmdir(directory)
    }
}
