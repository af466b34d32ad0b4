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
        public static let invalidParameter = ControlInterface.name + ".InvalidParameter"
        public static let providerFailed = ControlInterface.name + ".ProviderFailed"
        public static let invalidMessage = ControlInterface.name + ".InvalidMessage"
        public static let tooManyConnections = ControlInterface.name + ".TooManyConnections"
        public static let methodNotFound = ControlInterface.service + ".MethodNotFound"
        public static let methodNotImplemented = ControlInterface.service + ".MethodNotImplemented"
        public static let interfaceNotFound = ControlInterface.service + ".InterfaceNotFound"
        public static let serviceInvalidParameter = ControlInterface.service + ".InvalidParameter"
        public static let expectedMore = ControlInterface.service + ".ExpectedMore"
    }

    /// No manifest declares `kind`.
    public static func unknownKind(_ kind: String) -> ControlError {
        ControlError(name: Name.unknownKind, parameters: ["kind": .string(kind)])
    }

    /// No widget has the id `id`.
    public static func unknownWidget(_ id: String) -> ControlError {
        ControlError(name: Name.unknownWidget, parameters: ["id": .string(id)])
    }

    /// The group `group` holds no value under `key`.
    public static func unknownKey(group: String, key: String) -> ControlError {
        ControlError(name: Name.unknownKey, parameters: ["group": .string(group), "key": .string(key)])
    }

    /// The peer may not call `method` (or use its `foreground` flag); `reason` says why in plain words.
    public static func permissionDenied(method: String, reason: String) -> ControlError {
        ControlError(name: Name.permissionDenied, parameters: ["method": .string(method), "reason": .string(reason)])
    }

    /// `parameter` is missing, of the wrong type or has a value the daemon cannot accept, because of `reason`.
    public static func invalidParameter(_ parameter: String, reason: String) -> ControlError {
        ControlError(
            name: Name.invalidParameter, parameters: ["parameter": .string(parameter), "reason": .string(reason)]
        )
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

    /// The server already holds `limit` connections and refused this one.
    public static func tooManyConnections(limit: Int) -> ControlError {
        ControlError(name: Name.tooManyConnections, parameters: ["limit": .integer(Int64(limit))])
    }

    /// The interface exists but has no method `method`.
    public static func methodNotFound(_ method: String) -> ControlError {
        ControlError(name: Name.methodNotFound, parameters: ["method": .string(method)])
    }

    /// The method is declared but this server does not serve it.
    public static func methodNotImplemented(_ method: String) -> ControlError {
        ControlError(name: Name.methodNotImplemented, parameters: ["method": .string(method)])
    }

    /// The server has no interface `interface`.
    public static func interfaceNotFound(_ interface: String) -> ControlError {
        ControlError(name: Name.interfaceNotFound, parameters: ["interface": .string(interface)])
    }

    /// The standard `org.varlink.service.InvalidParameter`, for the service's own methods.
    public static func serviceInvalidParameter(_ parameter: String) -> ControlError {
        ControlError(name: Name.serviceInvalidParameter, parameters: ["parameter": .string(parameter)])
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
        case Name.invalidParameter: return "invalid parameter \"\(text("parameter"))\": \(text("reason"))"
        case Name.providerFailed:
            return "provider of kind \"\(text("kind"))\" failed (\(text("reason"))): \(text("detail"))"
        case Name.invalidMessage: return "invalid message: \(text("reason"))"
        case Name.tooManyConnections: return "refused: the daemon already serves \(text("limit")) connections"
        case Name.methodNotFound: return "method not found: \(text("method"))"
        case Name.methodNotImplemented: return "method not implemented: \(text("method"))"
        case Name.interfaceNotFound: return "interface not found: \(text("interface"))"
        case Name.serviceInvalidParameter: return "invalid parameter \"\(text("parameter"))\""
        case Name.expectedMore: return "the method streams replies and must be called with more"
        default:
            let detail = parameters.isEmpty ? "" : " " + JSONValue.object(parameters).jsonText()
            return name + detail
        }
    }

    public var description: String { message }
}
