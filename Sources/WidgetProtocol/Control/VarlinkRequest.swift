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

    public init(method: String, parameters: [String: JSONValue]? = nil, more: Bool? = nil, oneway: Bool? = nil) {
        self.method = method
        self.parameters = parameters
        self.more = more
        self.oneway = oneway
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
}
