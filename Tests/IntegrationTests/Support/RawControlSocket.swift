import Foundation
import Glibc

/// A bare Unix stream socket to the daemon, for bytes no well-behaved client would send.
final class RawControlSocket {
    /// What came back after a message.
    enum Reply: Equatable, CustomStringConvertible {
        /// One NUL-terminated message (without its NUL).
        case message(String)
        /// The daemon closed the connection without a reply.
        case closed
        /// Nothing within the deadline.
        case silent

        var description: String {
            switch self {
            case .message(let text): return "message \(text.prefix(300))"
            case .closed: return "closed"
            case .silent: return "no reply"
            }
        }
    }

    private let descriptor: Int32
    private var pending: [UInt8] = []

    /// Connects to the socket at `path`.
    init(path: String) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw IntegrationFailure("socket(): errno \(errno)") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(descriptor)
            throw IntegrationFailure("socket path too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            close(descriptor)
            throw IntegrationFailure("connect(\(path)): errno \(code)")
        }
    }

    deinit {
        close(descriptor)
    }

    /// Sends `bytes` as far as the daemon takes them; returns false if it closed the connection first.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    /// Sends `text` followed by the NUL that ends a Varlink message.
    @discardableResult
    func send(message text: String) -> Bool {
        send(Array(text.utf8) + [0])
    }

    /// Waits up to `timeout` seconds for the next message or the end of the connection. A reset counts as a close.
    func receive(timeout: Double = 5) -> Reply {
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            if let end = pending.firstIndex(of: 0) {
                let text = String(decoding: pending[..<end], as: UTF8.self)
                pending.removeSubrange(...end)
                return .message(text)
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return .silent }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(left * 1000) + 1)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return .silent }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return .closed }
            pending.append(contentsOf: buffer[0..<count])
        }
    }
}
