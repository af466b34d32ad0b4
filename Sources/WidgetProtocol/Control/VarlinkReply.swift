/// One Varlink reply as it travels from server to client. A reply is either a result (`parameters`) or an `error`
/// name with the error's parameters; `continues: true` means more replies follow for the same call.
public struct VarlinkReply: Sendable, Hashable, Codable {
    /// The output parameters, or the error's parameters when `error` is set.
    public var parameters: [String: JSONValue]?
    /// True on every reply of a streaming call but the last.
    public var continues: Bool?
    /// The fully qualified error name, e.g. `io.widgetscheduler.Scheduler.UnknownKind`.
    public var error: String?

    public init(parameters: [String: JSONValue]? = nil, continues: Bool? = nil, error: String? = nil) {
        self.parameters = parameters
        self.continues = continues
        self.error = error
    }

    /// A reply carrying `error`.
    public init(error: ControlError) {
        self.init(parameters: error.parameters, error: error.name)
    }

    /// Whether more replies follow.
    public var isContinued: Bool { continues ?? false }

    /// The error this reply carries, if it is one.
    public var controlError: ControlError? {
        error.map { ControlError(name: $0, parameters: parameters ?? [:]) }
    }
}
