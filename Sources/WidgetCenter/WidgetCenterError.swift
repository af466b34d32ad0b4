import WidgetControlClient
import WidgetProtocol

/// Why a call to the daemon failed. Each case carries what the daemon (or the kernel) said, and `description` is
/// the same one line `widgetctl` prints for it.
public enum WidgetCenterError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Nothing listens at the socket: the daemon is not installed or its socket unit is not started.
    case daemonNotRunning(socket: String, reason: String)
    /// The daemon refused the call (a reload or a write needs ownership of the kind, membership of the group
    /// `widget-scheduler` or root), or this user may not open the socket.
    case permissionDenied(reason: String)
    /// No manifest declares the kind.
    case unknownKind(String)
    /// No widget has the id.
    case unknownWidget(String)
    /// The daemon refused a parameter: a group or key name it cannot store, for example. `reason` is empty for the
    /// standard `org.varlink.service.InvalidParameter`, which names only the parameter.
    case invalidParameter(parameter: String, reason: String)
    /// A value the group cannot hold, refused before it was sent: values are text.
    case invalidValue(String)
    /// Any other refusal, with the error's name and the daemon's words (for example `TooManyConnections`).
    case refused(name: String, message: String)
    /// The conversation broke: the daemon closed the connection, did not answer in time, or answered nonsense.
    case connectionFailed(String)

    /// A client failure in the library's terms.
    init(_ error: ControlClientError) {
        switch error {
        case .daemonNotRunning(let path, let reason): self = .daemonNotRunning(socket: path, reason: reason)
        case .socketNotAccessible: self = .permissionDenied(reason: error.description)
        case .remote(let remote): self.init(remote)
        case .connectionClosed, .timedOut, .badReply, .io: self = .connectionFailed(error.description)
        }
    }

    /// A Varlink error reply in the library's terms. Both names of an invalid parameter map to `invalidParameter`.
    init(_ error: ControlError) {
        let text = { (key: String) in error.parameters[key]?.stringValue ?? "" }
        switch error.name {
        case ControlError.Name.permissionDenied: self = .permissionDenied(reason: text("reason"))
        case ControlError.Name.unknownKind: self = .unknownKind(text("kind"))
        case ControlError.Name.unknownWidget: self = .unknownWidget(text("id"))
        case ControlError.Name.invalidParameter, ControlError.Name.legacyInvalidParameter:
            self = .invalidParameter(parameter: text("parameter"), reason: text("reason"))
        default: self = .refused(name: error.name, message: error.message)
        }
    }

    public var description: String {
        switch self {
        case .daemonNotRunning(let socket, let reason):
            return ControlClientError.daemonNotRunning(path: socket, reason: reason).description
        case .permissionDenied(let reason): return ControlError.permissionDenied(method: "", reason: reason).message
        case .unknownKind(let kind): return ControlError.unknownKind(kind).message
        case .unknownWidget(let id): return ControlError.unknownWidget(id).message
        case .invalidParameter(let parameter, let reason):
            return ControlError.invalidParameter(parameter, reason: reason.isEmpty ? nil : reason).message
        case .invalidValue(let reason): return "invalid value: \(reason)"
        case .refused(_, let message): return message
        case .connectionFailed(let detail): return detail
        }
    }
}
