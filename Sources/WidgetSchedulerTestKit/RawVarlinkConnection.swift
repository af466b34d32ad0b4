import Foundation
import Glibc
import WidgetProtocol

/// A bare Unix stream socket to the daemon, for bytes no well-behaved client would send, for many connections at once
/// (`ControlClient` is one well-behaved connection), and for the benchmarks' clients, which time the daemon and the
/// socket rather than a client's JSON decoding (`receiveBytes`, `drain`). The one hand-written Varlink client of the
/// tests and benchmarks. Sendable by contract: one thread uses it at a time.
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

    /// A message's bytes as they came, without decoding them.
    public enum RawReply {
        /// One message's bytes without its NUL, valid until the next read of this connection, and the
        /// CLOCK_REALTIME seconds of the read that completed it.
        case message(ArraySlice<UInt8>, readAt: Double)
        /// The daemon closed the connection (or reset it).
        case closed
        /// Nothing within the deadline.
        case silent
    }

    public let descriptor: Int32
    /// What was read and not yet handed out starts at `consumed`; the messages handed out are dropped before the
    /// next read, not one by one (a burst of a thousand replies in one read moved the rest of the inbox a thousand
    /// times).
    private var inbox: [UInt8] = []
    private var consumed = 0
    /// Up to where `inbox` is known to hold no NUL: a large reply arrives in several reads, and searching it from its
    /// start after each one cost the benchmark client CPU beside the daemon it measures.
    private var scanned = 0
    /// CLOCK_REALTIME after the last read: every whole message in `inbox` was completed by that read, since the
    /// connection reads only when it holds none.
    private var lastRead = 0.0
    /// Where each read lands, allocated at the first read: a test may hold a thousand idle connections.
    private var buffer: [UInt8] = []
    private let readSize: Int

    /// Connects to the socket at `path`; each read takes up to `readSize` bytes (the benchmarks read large replies).
    public init(path: String, readSize: Int = 65_536) throws {
        self.readSize = max(readSize, 1)
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

    /// Sends `bytes` as far as the daemon takes them, calling `whileFull` whenever the socket takes no more for now:
    /// a test whose server runs on its own thread turns the server's loop there. False if it closed the connection.
    @discardableResult
    public func send(_ bytes: [UInt8], whileFull: () -> Void) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if sent > 0 {
                offset += sent
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                whileFull()
            } else if errno != EINTR {
                return false
            }
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
        switch receiveBytes(timeout: timeout) {
        case .message(let bytes, _): return .message(String(decoding: bytes, as: UTF8.self))
        case .closed: return .closed
        case .silent: return .silent
        }
    }

    /// Waits up to `timeout` seconds for the next message's bytes or the end of the connection.
    public func receiveBytes(timeout: Double = 5) -> RawReply {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let found = firstNUL(from: scanned) {
                let message = inbox[consumed..<found]
                consumed = found + 1
                scanned = consumed
                return .message(message, readAt: lastRead)
            }
            scanned = inbox.count
            // A deadline already passed still takes what has arrived (a client turning a server's loop itself asks
            // with a timeout of 0).
            let left = deadline.timeIntervalSinceNow
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, left > 0 ? Int32(min(left, 86_400) * 1000) + 1 : 0)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return .silent }
            dropConsumed()
            if buffer.isEmpty { buffer = [UInt8](repeating: 0, count: readSize) }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            lastRead = Self.wallClock()
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return .closed }
            inbox += buffer[0..<count]
        }
    }

    /// Every whole message that has arrived by now, in order, without waiting: reads until the socket is empty and
    /// hands each message's bytes (without the NUL) to `body`, stopping at its first error. Returns false once the
    /// daemon closed the connection.
    public func drain(_ body: (ArraySlice<UInt8>) throws -> Void) throws -> Bool {
        var open = true
        if buffer.isEmpty { buffer = [UInt8](repeating: 0, count: readSize) }
        while true {
            let count = buffer.withUnsafeMutableBytes {
                recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
            }
            if count > 0 {
                inbox += buffer[0..<count]
                continue
            }
            if count == 0 {
                open = false
                break
            }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { break }
            throw Failure("recv: \(String(cString: strerror(errno)))")
        }
        var start = consumed
        while let end = inbox[start...].firstIndex(of: 0) {
            try body(inbox[start..<end])
            start = end + 1
        }
        inbox.removeSubrange(..<start)
        consumed = 0
        scanned = 0
        return open
    }

    /// The index of the first NUL in `inbox` at or after `start`, found by glibc's `memchr`: the benchmark clients
    /// search every event with it, on the same two CPUs as the daemon they measure.
    private func firstNUL(from start: Int) -> Int? {
        inbox.withUnsafeBytes { bytes -> Int? in
            guard let base = bytes.baseAddress, start < bytes.count,
                  let hit = memchr(base + start, 0, bytes.count - start) else { return nil }
            return base.distance(to: UnsafeRawPointer(hit))
        }
    }

    /// Drops the messages handed out from the front of `inbox`.
    private func dropConsumed() {
        guard consumed > 0 else { return }
        inbox.removeSubrange(..<consumed)
        scanned -= consumed
        consumed = 0
    }

    /// CLOCK_REALTIME in seconds since 1970.
    private static func wallClock() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
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
