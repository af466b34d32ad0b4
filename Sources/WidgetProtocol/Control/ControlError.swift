/// A Varlink error: a fully qualified name and its parameters. Every refusal the daemon sends is one of these, and
/// `widgetctl` turns each into a one-line reason with `message`.
public struct ControlError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The fully qualified error name, e.g. `io.widgetscheduler.Scheduler.UnknownKind`.
    public var name: String
    /// The error's parameters, as declared in the interface description.
    public var parameters: [String: JSONValue]

    public init(name: String, parameters: [String: JSONValue] = [:]) {
        self.name = name
        self.parameters = parameters
    }

    /// Error names, all declared in the interface description or in `org.varlink.service`.
    public enum Name {
        public static let unknownKind = ControlInterface.name + ".UnknownKind"
        public static let unknownWidget = ControlInterface.name + ".UnknownWidget"
        public static let unknownKey = ControlInterface.name + ".UnknownKey"
        public static let permissionDenied = ControlInterface.name + ".PermissionDenied"
        /// Varlink's standard `org.varlink.service.InvalidParameter`: a parameter missing, unknown, of the wrong type
        /// or with a value the daemon cannot accept. The daemon adds a `reason` that clients may ignore.
        public static let invalidParameter = ControlInterface.service + ".InvalidParameter"
        /// The interface's own name for an invalid parameter, sent by daemons before they used the standard one;
        /// clients still read it.
        public static let legacyInvalidParameter = ControlInterface.name + ".InvalidParameter"
        public static let providerFailed = ControlInterface.name + ".ProviderFailed"
        public static let invalidMessage = ControlInterface.name + ".InvalidMessage"
        public static let tooManyConnections = ControlInterface.name + ".TooManyConnections"
        public static let connectionTimedOut = ControlInterface.name + ".ConnectionTimedOut"
        public static let bufferFull = ControlInterface.name + ".BufferFull"
        public static let rateLimited = ControlInterface.name + ".RateLimited"
        public static let stateNotWritten = ControlInterface.name + ".StateNotWritten"
        public static let methodNotFound = ControlInterface.service + ".MethodNotFound"
        public static let methodNotImplemented = ControlInterface.service + ".MethodNotImplemented"
        public static let interfaceNotFound = ControlInterface.service + ".InterfaceNotFound"
        public static let expectedMore = ControlInterface.service + ".ExpectedMore"
        public static let daemonStopping = ControlInterface.name + ".DaemonStopping"
        public static let noSuchImage = ControlInterface.name + ".NoSuchImage"
    }

    /// Why a connection was closed for keeping the socket without using it.
    public enum TimeoutReason: String, Sendable, Hashable, Codable {
        /// A message's first byte came and its end did not, within `message-timeout`.
        case incompleteMessage
        /// No traffic and no open call for `idle-timeout`.
        case idle
    }

    /// Which buffer a dropped connection overfilled.
    public enum Buffer: String, Sendable, Hashable, Codable {
        /// Its own stream's replies, waiting unread (`watch-backlog-limit`).
        case streamBacklog
        /// The daemon's, shared by all connections (`buffer-budget`), of which it held more than its share.
        case daemonBudget
    }

    /// The most characters of a name from a client that an error repeats: enough to recognise it, while a 1 MiB name
    /// does not come back as a 1 MiB error.
    public static let echoedPrefixLength = 64

    /// `text` as an error repeats it: whole up to `echoedPrefixLength` characters, else that many and how long it
    /// was.
    public static func echoed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard scalars.count > echoedPrefixLength else { return text }
        var prefix = String.UnicodeScalarView()
        prefix.append(contentsOf: scalars.prefix(echoedPrefixLength))
        return String(prefix) + "… (\(text.utf8.count) bytes)"
    }

    /// No manifest declares `kind`.
    public static func unknownKind(_ kind: String) -> ControlError {
        ControlError(name: Name.unknownKind, parameters: ["kind": .string(echoed(kind))])
    }

    /// No widget has the id `id`.
    public static func unknownWidget(_ id: String) -> ControlError {
        ControlError(name: Name.unknownWidget, parameters: ["id": .string(echoed(id))])
    }

    /// The group `group` holds no value under `key`.
    public static func unknownKey(group: String, key: String) -> ControlError {
        ControlError(name: Name.unknownKey, parameters: ["group": .string(echoed(group)), "key": .string(echoed(key))])
    }

    /// The peer may not call `method` (or use its `foreground` flag); `reason` says why in plain words.
    public static func permissionDenied(method: String, reason: String) -> ControlError {
        ControlError(name: Name.permissionDenied, parameters: ["method": .string(method), "reason": .string(reason)])
    }

    /// `parameter` is missing, unknown, of the wrong type or has a value the daemon cannot accept, because of
    /// `reason`: the standard `org.varlink.service.InvalidParameter`, which clients map to their own exception, with
    /// the reason in a field beside the standard `parameter` (one they may ignore).
    public static func invalidParameter(_ parameter: String, reason: String? = nil) -> ControlError {
        var parameters: [String: JSONValue] = ["parameter": .string(echoed(parameter))]
        if let reason { parameters["reason"] = .string(reason) }
        return ControlError(name: Name.invalidParameter, parameters: parameters)
    }

    /// No entry of `widget` (its stored timeline, its current entry), or no kept preview of `kind`, refers to an
    /// image with the SHA-256 `sha256`.
    public static func noSuchImage(widget: String? = nil, kind: String? = nil, sha256: String) -> ControlError {
        var parameters: [String: JSONValue] = ["sha256": .string(echoed(sha256))]
        if let widget { parameters["widget"] = .string(echoed(widget)) }
        if let kind { parameters["kind"] = .string(echoed(kind)) }
        return ControlError(name: Name.noSuchImage, parameters: parameters)
    }

    /// The daemon is stopping: the last message of a `Watch` stream, so a client tells a clean end from a lost
    /// connection.
    public static func daemonStopping() -> ControlError {
        ControlError(name: Name.daemonStopping)
    }

    /// The kind's provider failed to answer (options, defaults); `reason` is the runner's reason.
    public static func providerFailed(kind: String, reason: String, detail: String) -> ControlError {
        ControlError(
            name: Name.providerFailed,
            parameters: ["kind": .string(kind), "reason": .string(reason), "detail": .string(detail)]
        )
    }

    /// The message was not a Varlink call: bad JSON, not an object, no method, or larger than the limit.
    public static func invalidMessage(_ reason: String) -> ControlError {
        ControlError(name: Name.invalidMessage, parameters: ["reason": .string(reason)])
    }

    /// The server refused this connection: it holds `limit` connections already (`max-connections`); or, with
    /// `reserved`, `limit` connections of others than root and the admin group, the rest being kept for those
    /// (`admin-reserved-connections`); or, with `uid`, that user holds `limit` (`max-connections-per-user`).
    public static func tooManyConnections(limit: Int, uid: UInt32? = nil, reserved: Int? = nil) -> ControlError {
        var parameters: [String: JSONValue] = ["limit": .integer(Int64(limit))]
        if let uid { parameters["uid"] = .integer(Int64(uid)) }
        if let reserved { parameters["reserved"] = .integer(Int64(reserved)) }
        return ControlError(name: Name.tooManyConnections, parameters: parameters)
    }

    /// The server closed the connection after `seconds` without a whole message (`incompleteMessage`) or without
    /// any traffic while no call was open (`idle`).
    public static func connectionTimedOut(_ reason: TimeoutReason, seconds: Double) -> ControlError {
        // A whole number goes as an integer, as JSON brings it back, so that the error compares equal after a trip.
        let value = Int64(exactly: seconds).map(JSONValue.integer) ?? .number(seconds)
        return ControlError(name: Name.connectionTimedOut,
                            parameters: ["reason": .string(reason.rawValue), "seconds": value])
    }

    /// The server dropped the connection: `buffer` passed `limit` bytes.
    public static func bufferFull(_ buffer: Buffer, limit: Int) -> ControlError {
        ControlError(name: Name.bufferFull,
                     parameters: ["buffer": .string(buffer.rawValue), "limit": .integer(Int64(limit))])
    }

    /// `uid` asked `method` for more provider runs than `perMinute` a minute (`options-rate`); it may ask again in
    /// `retryAfter` seconds (rounded up to a tenth).
    public static func rateLimited(method: String, uid: UInt32, perMinute: Double, retryAfter: Double)
        -> ControlError
    {
        let tenths = (retryAfter * 10).rounded(.up) / 10
        func number(_ value: Double) -> JSONValue { Int64(exactly: value).map(JSONValue.integer) ?? .number(value) }
        return ControlError(name: Name.rateLimited, parameters: [
            "method": .string(method), "uid": .integer(Int64(uid)), "perMinute": number(perMinute),
            "retryAfter": number(tenths),
        ])
    }

    /// The daemon could not write its state because of `cause`, so a change was not saved: not made at all
    /// (`applied` false), or made in the running daemon only, saved if a later write succeeds before it stops
    /// (`applied` true).
    public static func stateNotWritten(cause: String, applied: Bool) -> ControlError {
        ControlError(name: Name.stateNotWritten, parameters: ["cause": .string(cause), "applied": .bool(applied)])
    }

    /// The interface exists but has no method `method`.
    public static func methodNotFound(_ method: String) -> ControlError {
        ControlError(name: Name.methodNotFound, parameters: ["method": .string(echoed(method))])
    }

    /// The method is declared but this server does not serve it.
    public static func methodNotImplemented(_ method: String) -> ControlError {
        ControlError(name: Name.methodNotImplemented, parameters: ["method": .string(echoed(method))])
    }

    /// The server has no interface `interface`.
    public static func interfaceNotFound(_ interface: String) -> ControlError {
        ControlError(name: Name.interfaceNotFound, parameters: ["interface": .string(echoed(interface))])
    }

    /// A streaming method was called without `more: true`.
    public static func expectedMore() -> ControlError {
        ControlError(name: Name.expectedMore)
    }

    /// The last component of the name, e.g. `UnknownKind`.
    public var shortName: String {
        guard let dot = name.lastIndex(of: ".") else { return name }
        return String(name[name.index(after: dot)...])
    }

    private func text(_ key: String) -> String {
        switch parameters[key] {
        case .string(let value): return value
        case .integer(let value): return String(value)
        case .some(let value): return value.jsonText()
        case nil: return "?"
        }
    }

    /// One line for people, e.g. `unknown kind "weather"` or `permission denied: Reload needs ...`.
    public var message: String {
        switch name {
        case Name.unknownKind: return "unknown kind \"\(text("kind"))\""
        case Name.unknownWidget: return "unknown widget \"\(text("id"))\""
        case Name.unknownKey: return "no value for key \"\(text("key"))\" in group \"\(text("group"))\""
        case Name.permissionDenied: return "permission denied: \(text("reason"))"
        case Name.invalidParameter, Name.legacyInvalidParameter:
            let reason = parameters["reason"] == nil ? "" : ": " + text("reason")
            return "invalid parameter \"\(text("parameter"))\"" + reason
        case Name.providerFailed:
            return "provider of kind \"\(text("kind"))\" failed (\(text("reason"))): \(text("detail"))"
        case Name.invalidMessage: return "invalid message: \(text("reason"))"
        case Name.tooManyConnections:
            if parameters["uid"] != nil {
                return "refused: uid \(text("uid")) already has \(text("limit")) connections to the daemon open "
                    + "(max-connections-per-user)"
            }
            if parameters["reserved"] != nil {
                return "refused: the daemon already serves \(text("limit")) connections; the \(text("reserved")) "
                    + "left are kept for root and the admin group (admin-reserved-connections)"
            }
            return "refused: the daemon already serves \(text("limit")) connections (max-connections)"
        case Name.connectionTimedOut:
            let seconds = text("seconds") + " s"
            if text("reason") == TimeoutReason.incompleteMessage.rawValue {
                return "closed by the daemon: a message stayed incomplete for \(seconds) (message-timeout)"
            }
            return "closed by the daemon: no call for \(seconds) (idle-timeout)"
        case Name.rateLimited:
            return "refused: uid \(text("uid")) asked \(text("method")) for more than \(text("perMinute")) provider "
                + "runs a minute (options-rate); ask again in \(text("retryAfter")) s"
        case Name.bufferFull:
            if text("buffer") == Buffer.streamBacklog.rawValue {
                return "dropped by the daemon: more than \(text("limit")) bytes of replies waited unread "
                    + "(watch-backlog-limit)"
            }
            return "dropped by the daemon: its buffers passed \(text("limit")) bytes (buffer-budget), and this "
                + "connection held more than its share"
        case Name.stateNotWritten:
            if parameters["applied"] == .bool(true) {
                return "not saved: the daemon cannot write its state (\(text("cause"))); the change is in effect until "
                    + "the daemon stops, and is saved if it can write again before then"
            }
            return "not done: the daemon cannot write its state (\(text("cause"))); nothing was changed"
        case Name.methodNotFound: return "method not found: \(text("method"))"
        case Name.methodNotImplemented: return "method not implemented: \(text("method"))"
        case Name.interfaceNotFound: return "interface not found: \(text("interface"))"
        case Name.expectedMore: return "the method streams replies and must be called with more"
        case Name.daemonStopping: return "the daemon is stopping"
        case Name.noSuchImage:
            let owner = parameters["widget"] != nil
                ? "widget \"\(text("widget"))\"" : "the previews of kind \"\(text("kind"))\""
            return "no image \(text("sha256")) in \(owner)"
        default:
            let detail = parameters.isEmpty ? "" : " " + JSONValue.object(parameters).jsonText()
            return name + detail
        }
    }

    public var description: String { message }
}
