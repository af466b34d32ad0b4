import Foundation
import Glibc
import WidgetProtocol

/// A blocking Varlink client for the control socket: one connection, one call at a time, NUL framing.
/// `widgetctl` and the `WidgetCenter` library share it. Each makes a few calls and waits for their answers, so plain
/// blocking reads are the simple, right tool; `WidgetCenter` moves them off the caller's thread where that matters.
public final class ControlClient {
    private let fd: Int32
    private let path: String
    private var inbox: [UInt8] = []
    /// The largest reply accepted: `List` of 100 000 widgets is ~28 MB.
    static let maximumReplySize = 256 << 20

    /// The socket path: `--socket`, else `WIDGET_SCHEDULER_SOCKET`, else the default.
    public static func socketPath(option: String?, environment: [String: String]) -> String {
        if let option, !option.isEmpty { return option }
        if let variable = environment[ControlInterface.socketEnvironmentVariable], !variable.isEmpty { return variable }
        return ControlInterface.defaultSocketPath
    }

    /// Connects to the daemon at `path`.
    public init(path: String) throws(ControlClientError) {
        self.path = path
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .io("socket: \(String(cString: strerror(errno)))") }
        guard let address = UnixSocketAddress(path: path) else {
            close(fd)
            throw .io("socket path too long (\(path.utf8.count) bytes, at most "
                + "\(UnixSocketAddress.maximumPathLength)): \(path)")
        }
        guard address.connect(fd) == 0 else {
            let code = errno
            close(fd)
            let reason = String(cString: strerror(code))
            switch code {
            case EACCES, EPERM: throw .socketNotAccessible(path: path, reason: reason)
            case ENOENT, ECONNREFUSED, ENOTDIR: throw .daemonNotRunning(path: path, reason: reason)
            default: throw .io("connect \(path): \(reason)")
            }
        }
        self.fd = fd
    }

    deinit {
        close(fd)
    }

    /// Calls `method` with `parameters` and decodes its reply; a Varlink error becomes `.remote`.
    /// `timeout` bounds the wait for the reply (a provider asked for options may take a while).
    public func call<Method: VarlinkMethod>(
        _ method: Method.Type, _ parameters: Method.Parameters, timeout: Double = 120
    ) throws(ControlClientError) -> Method.Reply {
        try send(VarlinkRequest(method: method.method.qualifiedName, parameters: VarlinkCoding.parameters(parameters)))
        let reply = try receive(timeout: timeout)
        if let error = reply.controlError { throw .remote(error) }
        return try decode(Method.Reply.self, reply)
    }

    /// Calls a streaming method with `more: true` and hands each reply to `onReply` until the daemon sends the last
    /// one (returned; nil when the stream ends with `DaemonStopping`, or with the empty reply of older daemons) or
    /// `onReply` returns false. `onSent` runs once the call is written: a host that reads the daemon's state after it
    /// cannot miss a change the stream would not show.
    @discardableResult
    public func stream<Method: VarlinkMethod>(
        _ method: Method.Type, _ parameters: Method.Parameters, onSent: () -> Void = {},
        onReply: (Method.Reply) -> Bool
    ) throws(ControlClientError) -> Method.Reply? {
        try send(VarlinkRequest(
            method: method.method.qualifiedName, parameters: VarlinkCoding.parameters(parameters), more: true))
        onSent()
        let decoder = VarlinkCoding.makeDecoder()
        while true {
            let message = try receiveMessage(timeout: nil)
            // A stream's replies are read straight into their type, in one pass: a burst of events is hundreds of
            // them. The last reply, an error, or anything that type cannot hold takes the general way below, which
            // tells the end of the stream and says what is wrong.
            if let typed = try? decoder.decode(TypedReply<Method.Reply>.self, from: Data(message)),
               typed.continues == true, typed.error == nil, let decoded = typed.parameters {
                if !onReply(decoded) { return nil }
                continue
            }
            let reply = try Self.decodeReply(message)
            if let error = reply.controlError {
                // The daemon ends a stream this way when it stops: a clean end, not a failure.
                if error.name == ControlError.Name.daemonStopping { return nil }
                throw .remote(error)
            }
            if !reply.isContinued && (reply.parameters ?? [:]).isEmpty { return nil }
            let decoded = try decode(Method.Reply.self, reply)
            if !reply.isContinued { return decoded }
            if !onReply(decoded) { return nil }
        }
    }

    /// Whether a whole message has already arrived and waits to be read: a stream's reader can tell the replies that
    /// came together (a burst of events) from the last one, and handle them as one.
    public var hasBufferedMessage: Bool { inbox.contains(0) }

    /// What a stream delivered: a reply, its end (with the last reply, nil when it was the empty end-of-stream reply),
    /// or nothing before the timeout.
    public enum StreamEvent<Reply> {
        case reply(Reply)
        case end(Reply?)
        case timedOut
    }

    /// Calls a streaming method with `more: true`; read its replies with `nextReply(of:timeout:)`. For clients that
    /// have something to do at a given time between replies (a ticking text), and otherwise sleep.
    public func openStream<Method: VarlinkMethod>(
        _ method: Method.Type, _ parameters: Method.Parameters
    ) throws(ControlClientError) {
        try send(VarlinkRequest(
            method: method.method.qualifiedName, parameters: VarlinkCoding.parameters(parameters), more: true))
    }

    /// The stream's next reply, waiting at most `timeout` seconds (nil: as long as it takes).
    public func nextReply<Method: VarlinkMethod>(
        of method: Method.Type, timeout: Double?
    ) throws(ControlClientError) -> StreamEvent<Method.Reply> {
        guard let message = try receiveMessage(timeout: timeout, throwOnTimeout: false) else { return .timedOut }
        let reply = try Self.decodeReply(message)
        if let error = reply.controlError { throw .remote(error) }
        if !reply.isContinued && (reply.parameters ?? [:]).isEmpty { return .end(nil) }
        let decoded = try decode(Method.Reply.self, reply)
        return reply.isContinued ? .reply(decoded) : .end(decoded)
    }

    /// Sends any request and returns the raw reply (for `org.varlink.service` and tests).
    public func raw(_ request: VarlinkRequest, timeout: Double = 120) throws(ControlClientError) -> VarlinkReply {
        try send(request)
        return try receive(timeout: timeout)
    }

    /// A reply read as `Value`'s parameters directly, without `VarlinkReply`'s JSON values in between.
    private struct TypedReply<Value: Decodable>: Decodable {
        var parameters: Value?
        var continues: Bool?
        var error: String?
    }

    private func decode<Value: Decodable>(
        _ type: Value.Type, _ reply: VarlinkReply
    ) throws(ControlClientError) -> Value {
        do {
            return try VarlinkCoding.decode(Value.self, from: reply.parameters)
        } catch {
            throw .badReply(error.message)
        }
    }

    private func send(_ request: VarlinkRequest) throws(ControlClientError) {
        var bytes: [UInt8]
        do {
            bytes = try VarlinkCoding.encode(request)
        } catch {
            throw .io("cannot encode the call: \(error)")
        }
        bytes.append(0)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else if written < 0 && (errno == EPIPE || errno == ECONNRESET) {
                throw closedBeforeCall()
            } else {
                throw .io("send to \(path): \(String(cString: strerror(errno)))")
            }
        }
    }

    /// The daemon closed the connection before the call went out. A daemon that refuses a connection (too many
    /// connections) or drops it (a timeout, its buffers) says why first: that reply is read from what already came,
    /// without waiting, and thrown as the daemon's error.
    private func closedBeforeCall() -> ControlClientError {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while inbox.count < 65536 {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 {
                inbox += buffer[0..<count]
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        guard let end = inbox.firstIndex(of: 0), let reply = try? Self.decodeReply(Array(inbox[..<end])),
              let error = reply.controlError else { return .connectionClosed }
        return .remote(error)
    }

    private func receive(timeout: Double?) throws(ControlClientError) -> VarlinkReply {
        try Self.decodeReply(try receiveMessage(timeout: timeout))
    }

    private func receiveMessage(timeout: Double?) throws(ControlClientError) -> [UInt8] {
        guard let message = try receiveMessage(timeout: timeout, throwOnTimeout: true) else {
            throw .timedOut(seconds: timeout ?? 0)
        }
        return message
    }

    private static func decodeReply(_ message: [UInt8]) throws(ControlClientError) -> VarlinkReply {
        guard let reply = try? JSONDecoder().decode(VarlinkReply.self, from: Data(message)) else {
            throw .badReply(String(decoding: message.prefix(200), as: UTF8.self))
        }
        return reply
    }

    /// Calls `method` and returns the daemon's reply as it came, one Varlink message without its NUL, for output
    /// that passes the daemon's JSON through; an error reply is thrown as `call` throws it.
    public func callRaw<Method: VarlinkMethod>(
        _ method: Method.Type, _ parameters: Method.Parameters, timeout: Double = 120
    ) throws(ControlClientError) -> [UInt8] {
        try send(VarlinkRequest(method: method.method.qualifiedName, parameters: VarlinkCoding.parameters(parameters)))
        let message = try receiveMessage(timeout: timeout)
        // Only a reply that is not plainly parameters needs reading, to tell an error.
        if !message.starts(with: Self.parametersPrefix) {
            let reply = try Self.decodeReply(message)
            if let error = reply.controlError { throw .remote(error) }
        }
        return message
    }

    private static let parametersPrefix = Array(#"{"parameters":"#.utf8)

    /// The reply of `method` in a message `callRaw` returned.
    public static func decode<Method: VarlinkMethod>(
        _ method: Method.Type, message: [UInt8]
    ) throws(ControlClientError) -> Method.Reply {
        let reply = try decodeReply(message)
        if let error = reply.controlError { throw .remote(error) }
        do {
            return try VarlinkCoding.decode(Method.Reply.self, from: reply.parameters)
        } catch {
            throw .badReply(error.message)
        }
    }

    /// One message, or nil when `timeout` passed first and not `throwOnTimeout`.
    private func receiveMessage(timeout: Double?, throwOnTimeout: Bool) throws(ControlClientError) -> [UInt8]? {
        let deadline = timeout.map { Date().addingTimeInterval($0) }
        var buffer = [UInt8](repeating: 0, count: 65536)
        // Where the search for the terminating NUL goes on: scanning the whole inbox after every read made a 27 MB
        // reply quadratic.
        var scanned = 0
        while true {
            if let end = inbox[scanned...].firstIndex(of: 0) {
                let message = Array(inbox[..<end])
                inbox.removeSubrange(...end)
                return message
            }
            scanned = inbox.count
            if inbox.count > Self.maximumReplySize {
                throw .badReply("reply larger than \(Self.maximumReplySize) bytes")
            }
            var waitMilliseconds: Int32 = -1
            if let deadline {
                let left = deadline.timeIntervalSinceNow
                guard left > 0 else {
                    if throwOnTimeout { throw .timedOut(seconds: timeout ?? 0) }
                    return nil
                }
                waitMilliseconds = Int32(min(left * 1000, Double(Int32.max)).rounded(.up))
            }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, waitMilliseconds)
            if ready < 0 {
                if errno == EINTR { continue }
                throw .io("poll: \(String(cString: strerror(errno)))")
            }
            if ready == 0 { continue }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                inbox += buffer[0..<count]
            } else if count == 0 {
                throw .connectionClosed
            } else if errno != EINTR {
                if errno == ECONNRESET { throw .connectionClosed }
                throw .io("receive from \(path): \(String(cString: strerror(errno)))")
            }
        }
    }
}
