import Foundation

/// One Varlink call as it travels from client to server: a JSON object, terminated on the wire by a NUL byte.
public struct VarlinkRequest: Sendable, Hashable, Codable {
    /// The fully qualified method, e.g. `io.widgetscheduler.Scheduler.Reload`.
    public var method: String
    /// The method's input parameters; absent means none.
    public var parameters: [String: JSONValue]?
    /// Whether the client accepts several replies (a streaming call, answered with `continues: true` until the last).
    public var more: Bool?
    /// Whether the client wants no reply at all.
    public var oneway: Bool?
    /// Whether the client asks to take the connection over for another protocol after the reply. No method of this
    /// interface offers that, so the daemon refuses such a call.
    public var upgrade: Bool?

    public init(
        method: String, parameters: [String: JSONValue]? = nil, more: Bool? = nil, oneway: Bool? = nil,
        upgrade: Bool? = nil
    ) {
        self.method = method
        self.parameters = parameters
        self.more = more
        self.oneway = oneway
        self.upgrade = upgrade
    }

    /// The interface part of `method`: everything before the last dot.
    public var interface: String {
        guard let dot = method.lastIndex(of: ".") else { return "" }
        return String(method[..<dot])
    }

    /// The member part of `method`: everything after the last dot.
    public var member: String {
        guard let dot = method.lastIndex(of: ".") else { return method }
        return String(method[method.index(after: dot)...])
    }

    /// Whether the client asked for a streaming call.
    public var wantsMore: Bool { more ?? false }

    /// Whether the client asked for no reply.
    public var isOneway: Bool { oneway ?? false }

    /// Whether the client asked to upgrade the connection.
    public var wantsUpgrade: Bool { upgrade ?? false }

    /// Parses one framed message (NUL removed) into a call, or `InvalidMessage` saying what is wrong with it: not
    /// JSON, a key given twice (I-JSON, RFC 7493), not an object, no string `method`, or `parameters`, `more`,
    /// `oneway`, `upgrade` of the wrong type. Never traps, whatever the bytes; this is the control message decoder the
    /// fuzzer drives.
    public static func parse(_ message: [UInt8]) -> Result<VarlinkRequest, ControlError> {
        let json: JSONValue
        switch JSONValue.parse(message) {
        case .success(let value): json = value
        case .failure(.notJSON): return .failure(.invalidMessage("not valid JSON"))
        case .failure(.duplicateKey(let duplicate)): return .failure(.invalidMessage("the call has \(duplicate)"))
        }
        guard case .object(let object) = json else {
            return .failure(.invalidMessage("a call must be a JSON object, not \(json.typeName)"))
        }
        guard case .string(let method)? = object["method"] else {
            let found = object["method"].map { value -> String in
                let vowel = "aeiou".contains(value.typeName.first ?? "x")
                return (vowel ? "an " : "a ") + value.typeName
            } ?? "nothing"
            return .failure(.invalidMessage("\"method\" must be a string, found \(found)"))
        }
        var parameters: [String: JSONValue]?
        switch object["parameters"] {
        case nil, .null?: parameters = nil
        case .object(let value)?: parameters = value
        case let other?: return .failure(.invalidMessage("\"parameters\" must be an object, not \(other.typeName)"))
        }
        func flag(_ name: String) -> Result<Bool?, ControlError> {
            switch object[name] {
            case nil, .null?: return .success(nil)
            case .bool(let value)?: return .success(value)
            case let other?: return .failure(.invalidMessage("\"\(name)\" must be a boolean, not \(other.typeName)"))
            }
        }
        let more: Bool?
        let oneway: Bool?
        let upgrade: Bool?
        switch (flag("more"), flag("oneway"), flag("upgrade")) {
        case (.success(let moreFlag), .success(let onewayFlag), .success(let upgradeFlag)):
            more = moreFlag
            oneway = onewayFlag
            upgrade = upgradeFlag
        case (.failure(let error), _, _), (_, .failure(let error), _), (_, _, .failure(let error)):
            return .failure(error)
        }
        return .success(VarlinkRequest(method: method, parameters: parameters, more: more, oneway: oneway,
                                       upgrade: upgrade))
    }
}
