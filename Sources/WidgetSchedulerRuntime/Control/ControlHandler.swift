import WidgetProtocol

/// The daemon's side of the control socket: one function per call. `ControlServer` serves `org.varlink.service`
/// itself, rejects unknown methods and streaming methods called without `more`, and hands every other call of
/// `io.widgetscheduler.Scheduler` here, on the event loop's thread.
///
/// Decode parameters with `call.parameters(ReloadMethod.self)` (a thrown `ControlError` can be returned as
/// `.error`), check permissions with `Authorization`, then either answer at once with `.reply(...)` or `.error(...)`,
/// or keep `call` and return `.pending` to answer later (`call.reply`, `call.fail`) or to stream (`call.stream`).
public protocol ControlHandler: AnyObject {
    /// Answers one call from `peer`.
    func handle(_ call: VarlinkCall, peer: PeerCredentials) -> VarlinkResponse
}

/// A handler's answer to a call.
public enum VarlinkResponse: Sendable, Hashable {
    /// The final reply, with these output parameters.
    case reply([String: JSONValue])
    /// A Varlink error.
    case error(ControlError)
    /// The handler kept the call and will answer (or stream) later through it. The connection processes no further
    /// call until this one ends, as Varlink requires replies in call order.
    case pending
    /// The final reply, its output parameters already encoded as one JSON object.
    case encoded([UInt8])
    /// The final reply as a whole Varlink message, NUL terminator included, made by `message(capacity:_:)`. The
    /// connection queues these very bytes: a `List` of 100 000 widgets is 27 MB, and copying it into the output
    /// buffer would double what it adds to the daemon's peak memory.
    case message([UInt8])

    /// A final reply whose parameters object `write` writes, framed as a Varlink message in the same buffer.
    public static func message(capacity: Int, _ write: (inout JSONBytesWriter) -> Void) -> VarlinkResponse {
        var output = JSONBytesWriter(reservingCapacity: capacity + 16)
        output.raw(#"{"parameters":"#)
        write(&output)
        output.raw("}\0")
        return .message(output.bytes)
    }

    /// The final reply, encoded from one of the interface's reply types. It is encoded once, straight to bytes: a
    /// detour through `[String: JSONValue]` decodes and re-encodes it, which for `List` of 100 000 widgets is seconds.
    public static func reply<Reply: Encodable>(_ reply: Reply) -> VarlinkResponse {
        if let reply = reply as? any JSONObjectEncodable {
            return .message(capacity: reply.jsonCapacityEstimate) { reply.encodeJSONObject(into: &$0) }
        }
        return VarlinkCall.encodedObject(reply).map { .encoded($0) } ?? .reply(VarlinkCoding.parameters(reply))
    }
}
