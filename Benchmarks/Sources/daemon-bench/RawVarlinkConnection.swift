import Foundation
import Glibc
import WidgetProtocol

/// A bare Varlink connection: writes a request and reads NUL-terminated replies as raw bytes, so a measurement times
/// the daemon and the socket, not a client's JSON decoding.
final class RawVarlinkConnection {
    private let fd: Int32
    private var inbox: [UInt8] = []
    /// Where the replies not yet handed out start in `inbox`: the ones handed out are dropped before the next read,
    /// not one by one (a burst of a thousand replies in one read moved the rest of the inbox a thousand times).
    private var consumed = 0
    /// Up to where `inbox` is known to hold no NUL: a large reply arrives in several reads, and searching it from its
    /// start after each one cost P5's client ~0.7 ms of CPU a call (889 KB in five reads).
    private var scanned = 0
    /// CLOCK_REALTIME after the last read: every whole reply in `inbox` was completed by that read, since the
    /// connection reads only when it holds none.
    private var lastRead = 0.0
    private static let terminator: [UInt8] = [0]
    private var buffer = [UInt8](repeating: 0, count: 1 << 20)

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw BenchError("socket: \(String(cString: strerror(errno)))") }
        guard let address = UnixSocketAddress(path: path) else { throw BenchError("\(path): path too long") }
        guard address.connect(fd) == 0 else { throw BenchError("connect \(path): \(String(cString: strerror(errno)))") }
    }

    deinit { close(fd) }

    /// Sends one request (a JSON object's text); the NUL terminator is added here.
    func send(_ json: String) throws {
        var bytes = Array(json.utf8)
        bytes.append(0)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, 0) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw BenchError("send: \(String(cString: strerror(errno)))") }
            offset += written
        }
    }

    /// The next whole reply, its bytes without the NUL, and the CLOCK_REALTIME of the read that completed it.
    /// nil when the daemon closed the connection; `timeout` seconds without a reply is an error.
    func receive(timeout: Double = 30) throws -> (bytes: ArraySlice<UInt8>, wall: Double)? {
        while true {
            if let found = inbox[scanned...].offset(of: Self.terminator) {
                let end = scanned + found
                let message = inbox[consumed..<end]
                consumed = end + 1
                scanned = consumed
                return (message, lastRead)
            }
            scanned = inbox.count
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(timeout * 1000))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { throw BenchError("no reply within \(timeout) s") }
            dropConsumed()
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            lastRead = Clock.wall()
            if count == 0 { return nil }
            if count < 0 {
                if errno == EINTR { continue }
                throw BenchError("recv: \(String(cString: strerror(errno)))")
            }
            inbox += buffer[0..<count]
        }
    }

    /// Drops the replies handed out from the front of `inbox`.
    private func dropConsumed() {
        guard consumed > 0 else { return }
        inbox.removeSubrange(..<consumed)
        scanned -= consumed
        consumed = 0
    }

    /// Every whole reply that has arrived by now, in order, without waiting: reads until the socket is empty and
    /// hands each reply's bytes (without the NUL) to `body`, stopping at its first error. Returns false once the
    /// daemon closed the connection.
    func drain(_ body: (ArraySlice<UInt8>) throws -> Void) throws -> Bool {
        var open = true
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
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
            throw BenchError("recv: \(String(cString: strerror(errno)))")
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

    /// One call: the reply's bytes; a Varlink error reply is an error naming it.
    func call(_ json: String, timeout: Double = 60) throws -> ArraySlice<UInt8> {
        try send(json)
        guard let reply = try receive(timeout: timeout) else { throw BenchError("the daemon closed the connection") }
        if String(decoding: reply.bytes.prefix(64), as: UTF8.self).contains(#""error":"#) {
            throw BenchError("Varlink error: \(String(decoding: reply.bytes.prefix(300), as: UTF8.self))")
        }
        return reply.bytes
    }
}
