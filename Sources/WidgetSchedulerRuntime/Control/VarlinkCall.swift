import WidgetProtocol

/// One call of `io.widgetscheduler.Scheduler` being answered.
///
/// A handler that returns `.pending` keeps the call and later ends it with `reply` or `fail`; for a `more` call it
/// may first `stream` any number of replies. After the call ends, or once its connection is gone (`isOpen` is
/// false), every method here does nothing, so a handler may keep stale calls without harm; `onClose` tells it when
/// to drop them. All methods must be called on the event loop's thread.
public final class VarlinkCall {
    /// The call as received.
    public let request: VarlinkRequest
    /// The method called.
    public let method: ControlMethod
    /// Who called.
    public let peer: PeerCredentials
    /// False once the call ended (final reply or error) or its connection closed.
    public private(set) var isOpen = true
    /// Runs once if the call ends without a final reply from the handler: the peer went away, the connection was
    /// dropped for not reading its stream, or the server stopped. It may run from inside `stream` (the stream that
    /// overflowed), so a handler iterating its watchers should iterate a copy.
    public var onClose: (() -> Void)?

    weak var connection: ControlConnection?

    init(request: VarlinkRequest, method: ControlMethod, peer: PeerCredentials, connection: ControlConnection?) {
        self.request = request
        self.method = method
        self.peer = peer
        self.connection = connection
    }

    /// Whether the client asked for a stream (`more: true`).
    public var wantsMore: Bool { request.wantsMore }

    /// The call's parameters decoded as `Method.Parameters`; `InvalidParameter` naming the field at fault otherwise.
    public func parameters<Method: VarlinkMethod>(_ method: Method.Type) throws(ControlError) -> Method.Parameters {
        try VarlinkCoding.decode(Method.Parameters.self, from: request.parameters)
    }

    /// Ends the call with a handler's answer, as if the handler had returned it (`.pending` does nothing).
    public func answer(_ response: VarlinkResponse) {
        switch response {
        case .reply(let parameters): reply(parameters)
        case .encoded(let parameters): reply(encoded: parameters)
        case .message(let bytes): reply(message: bytes)
        case .error(let error): fail(error)
        case .pending: break
        }
    }

    /// Ends the call with its final reply.
    public func reply(_ parameters: [String: JSONValue]) {
        finish(VarlinkReply(parameters: parameters))
    }

    /// Ends the call with its final reply, encoded from one of the interface's reply types.
    public func reply<Reply: Encodable>(_ reply: Reply) {
        guard let bytes = Self.encodedObject(reply) else {
            self.reply(VarlinkCoding.parameters(reply))
            return
        }
        self.reply(encoded: bytes)
    }

    /// Ends the call with its final reply, its parameters object already encoded.
    func reply(encoded parameters: [UInt8]) {
        guard isOpen else { return }
        isOpen = false
        onClose = nil
        connection?.send(encoded: parameters, continues: false, for: self)
        connection?.callEnded(self)
        connection = nil
    }

    /// Ends the call with its final reply, a whole message already (`VarlinkResponse.message`).
    func reply(message bytes: [UInt8]) {
        guard isOpen else { return }
        isOpen = false
        onClose = nil
        connection?.send(message: bytes, for: self)
        connection?.callEnded(self)
        connection = nil
    }

    /// `reply` as JSON bytes, encoded once (not through `[String: JSONValue]`), or nil if it is not an object.
    static func encodedObject<Reply: Encodable>(_ reply: Reply) -> [UInt8]? {
        if let reply = reply as? any JSONObjectEncodable { return reply.encodedJSONObject() }
        guard let bytes = try? VarlinkCoding.encode(reply), bytes.first == UInt8(ascii: "{") else { return nil }
        return bytes
    }

    /// Ends the call with an error.
    public func fail(_ error: ControlError) {
        finish(VarlinkReply(error: error))
    }

    /// Sends one reply of a stream (`continues: true`) and keeps the call open. On a call made without `more` the
    /// reply is sent as the final one instead. Returns whether the call is still open afterwards.
    @discardableResult
    public func stream<Reply: Encodable>(_ reply: Reply) -> Bool {
        guard isOpen else { return false }
        guard wantsMore else {
            self.reply(reply)
            return false
        }
        if let bytes = Self.encodedObject(reply) {
            connection?.send(encoded: bytes, continues: true, for: self)
        } else {
            connection?.send(VarlinkReply(parameters: VarlinkCoding.parameters(reply), continues: true), for: self)
        }
        return isOpen
    }

    private func finish(_ reply: VarlinkReply) {
        guard isOpen else { return }
        isOpen = false
        onClose = nil
        connection?.send(reply, for: self)
        connection?.callEnded(self)
        connection = nil
    }

    /// Called by the connection when it goes away with this call still open.
    func connectionClosed() {
        guard isOpen else { return }
        isOpen = false
        connection = nil
        let onClose = self.onClose
        self.onClose = nil
        onClose?()
    }
}
