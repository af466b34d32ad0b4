import Foundation
import Glibc
import WidgetProtocol

/// A bare Unix stream socket to the daemon, for bytes no well-behaved client would send and for many connections
/// at once (`ControlClient` is one well-behaved connection). Sendable by contract: one thread uses it at a time.
/// Shared by the integration and reliability tests.
public final class RawVarlinkConnection: @unchecked Sendable {
    /// Why a connection or a call failed.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    /// What came back after a message.
    public enum Reply: Equatable, CustomStringConvertible {
        /// One NUL-terminated message (without its NUL).
        case message(String)
        /// The daemon closed the connection (or reset it).
        case closed
        /// Nothing within the deadline.
        case silent

        public var description: String {
            switch self {
            case .message(let text): return "message \(text.prefix(300))"
            case .closed: return "closed"
            case .silent: return "no reply"
            }
        }

        /// The Varlink error name of an error reply.
        public var errorName: String? {
            guard case .message(let text) = self,
                  case .object(let object)? = JSONValue(jsonText: text) else { return nil }
            return object["error"]?.stringValue
        }
    }

    public let descriptor: Int32
    private var pending: [UInt8] = []

    /// Connects to the socket at `path`.
    public init(path: String) throws {
        // The descriptor is stored only once connected: a class whose stored properties are all set runs its deinit
        // when init throws, and closing there too closed whatever descriptor another thread had opened under the same
        // number meanwhile (tests polling for a socket saw other tests' connections die or go silent).
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure("socket(): errno \(errno)") }
        guard let result = UnixSocketAddress(path: path)?.connect(fd) else {
            close(fd)
            throw Failure("socket path too long: \(path)")
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw Failure("connect(\(path)): \(String(cString: strerror(code)))")
        }
        descriptor = fd
    }

    deinit {
        close(descriptor)
    }

    /// Sends `bytes` as far as the daemon takes them; false if it closed the connection first.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
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
    public func send(message text: String) -> Bool {
        send(Array(text.utf8) + [0])
    }

    /// Sends a call, NUL-terminated.
    @discardableResult
    public func send(method: String, parameters: [String: JSONValue]? = nil) -> Bool {
        let request = VarlinkRequest(method: method, parameters: parameters)
        guard let bytes = try? VarlinkCoding.encode(request) else { return false }
        return send(bytes + [0])
    }

    /// Waits up to `timeout` seconds for the next message or the end of the connection.
    public func receive(timeout: Double = 5) -> Reply {
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

    /// A call and its reply's parameters, or a failure naming the error or the silence.
    public func call(_ method: String, _ parameters: [String: JSONValue]? = nil, timeout: Double = 10) throws
        -> [String: JSONValue]
    {
        guard send(method: method, parameters: parameters) else { throw Failure("\(method): send failed") }
        let reply = receive(timeout: timeout)
        guard case .message(let text) = reply, case .object(let object)? = JSONValue(jsonText: text),
              object["error"] == nil
        else { throw Failure("\(method): \(reply)") }
        return object["parameters"]?.objectValue ?? [:]
    }
}
