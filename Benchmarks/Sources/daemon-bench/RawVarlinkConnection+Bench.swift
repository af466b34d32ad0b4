import WidgetSchedulerTestKit

/// The benchmark clients' use of the test kit's raw connection: requests written as text, replies kept as bytes with
/// the time of the read that completed them, so that a measurement times the daemon and the socket, not a client's
/// JSON decoding.
extension RawVarlinkConnection {
    /// A connection reading up to 1 MiB at a time: P2's and P5's replies are hundreds of kilobytes.
    static func bench(path: String) throws -> RawVarlinkConnection {
        do {
            return try RawVarlinkConnection(path: path, readSize: 1 << 20)
        } catch {
            throw BenchError("\(error)")
        }
    }

    /// Sends one request (a JSON object's text); the NUL terminator is added here.
    func sendRequest(_ json: String) throws {
        guard send(message: json) else { throw BenchError("send: the daemon closed the connection") }
    }

    /// The next whole reply, its bytes without the NUL, and the CLOCK_REALTIME of the read that completed it.
    /// nil when the daemon closed the connection; `timeout` seconds without a reply is an error.
    func nextReply(timeout: Double = 30) throws -> (bytes: ArraySlice<UInt8>, wall: Double)? {
        switch receiveBytes(timeout: timeout) {
        case .message(let bytes, let readAt): return (bytes, readAt)
        case .closed: return nil
        case .silent: throw BenchError("no reply within \(timeout) s")
        }
    }

    /// One call: the reply's bytes; a Varlink error reply is an error naming it.
    func call(request json: String, timeout: Double = 60) throws -> ArraySlice<UInt8> {
        try sendRequest(json)
        guard let reply = try nextReply(timeout: timeout) else { throw BenchError("the daemon closed the connection") }
        if String(decoding: reply.bytes.prefix(64), as: UTF8.self).contains(#""error":"#) {
            throw BenchError("Varlink error: \(String(decoding: reply.bytes.prefix(300), as: UTF8.self))")
        }
        return reply.bytes
    }
}
