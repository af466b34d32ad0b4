import Foundation
import Glibc
import SystemdKit
import WidgetProtocol
import WidgetSchedulerTestKit

/// A raw test client on a Unix socket that turns the server's event loop while it waits, so one thread plays both
/// sides without blocking: `RawVarlinkConnection`, never waiting on the socket itself.
final class ControlSocketClient {
    private let connection: RawVarlinkConnection
    private(set) var sawEnd = false

    init?(path: String) {
        guard let connection = try? RawVarlinkConnection(path: path) else { return nil }
        self.connection = connection
    }

    var fd: Int32 { connection.descriptor }

    /// Writes all of `bytes`, turning the loop whenever the socket is full. False if the server closed it.
    @discardableResult
    func send(_ bytes: [UInt8], loop: EventLoop) -> Bool {
        connection.send(bytes) { _ = try? loop.runOnce(timeout: 10_000) }
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
            switch connection.receiveBytes(timeout: 0) {
            case .message(let bytes, _):
                return try? JSONDecoder().decode(VarlinkReply.self, from: Data(bytes))
            case .closed:
                sawEnd = true
                return nil
            case .silent:
                _ = try? loop.runOnce(timeout: 10_000)
            }
        }
        return nil
    }

    /// Whether the server closed the connection within `timeout` seconds (replies before the end are discarded).
    func waitForEnd(loop: EventLoop, timeout: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline && !sawEnd {
            switch connection.receiveBytes(timeout: 0) {
            case .message: continue
            case .closed: sawEnd = true
            case .silent: _ = try? loop.runOnce(timeout: 10_000)
            }
        }
        return sawEnd
    }
}

/// A fresh directory for one test's socket, short enough for sun_path.
func controlSocketDirectory() -> String {
    let path = "/tmp/ctl-" + String(UUID().uuidString.prefix(8))
    mkdir(path, 0o755)
    return path
}
