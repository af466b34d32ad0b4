import Foundation
import Glibc
import SystemdKit
import WidgetProtocol

/// A raw test client on a Unix socket that turns the server's event loop while it waits, so one thread plays both
/// sides without blocking.
final class ControlSocketClient {
    let fd: Int32
    private var inbox: [UInt8] = []
    private(set) var sawEnd = false

    init?(path: String) {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        guard UnixSocketAddress(path: path)?.connect(fd) == 0 else {
            close(fd)
            return nil
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        close(fd)
    }

    /// Writes all of `bytes`, turning the loop whenever the socket is full. False if the server closed it.
    @discardableResult
    func send(_ bytes: [UInt8], loop: EventLoop) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written > 0 {
                offset += written
            } else if errno == EAGAIN {
                _ = try? loop.runOnce(timeout: 10_000)
                drainSocket()
            } else {
                return false
            }
        }
        return true
    }

    /// Sends one call.
    @discardableResult
    func call(_ json: String, loop: EventLoop) -> Bool {
        send(Array(json.utf8) + [0], loop: loop)
    }

    /// The next reply, turning the loop until it arrives; nil on end of stream or after `timeout` seconds.
    func nextReply(loop: EventLoop, timeout: Double = 10) -> VarlinkReply? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let end = inbox.firstIndex(of: 0) {
                let message = Array(inbox[..<end])
                inbox.removeSubrange(...end)
                return try? JSONDecoder().decode(VarlinkReply.self, from: Data(message))
            }
            if sawEnd { return nil }
            _ = try? loop.runOnce(timeout: 10_000)
            drainSocket()
        }
        return nil
    }

    /// Whether the server closed the connection within `timeout` seconds (replies before the end are discarded).
    func waitForEnd(loop: EventLoop, timeout: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline && !sawEnd {
            _ = try? loop.runOnce(timeout: 10_000)
            drainSocket()
        }
        return sawEnd
    }

    private func drainSocket() {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                inbox += buffer[0..<count]
            } else {
                if count == 0 || (errno != EAGAIN && errno != EINTR) { sawEnd = true }
                return
            }
        }
    }
}

/// A fresh directory for one test's socket, short enough for sun_path.
func controlSocketDirectory() -> String {
    let path = "/tmp/ctl-" + String(UUID().uuidString.prefix(8))
    mkdir(path, 0o755)
    return path
}
