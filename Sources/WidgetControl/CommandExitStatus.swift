import WidgetControlClient
import WidgetProtocol

extension ControlClientError {
    /// The process exit status for this failure (see `CommandExitStatus`).
    public var exitStatus: CommandExitStatus {
        switch self {
        case .daemonNotRunning: return .notRunning
        case .socketNotAccessible: return .permissionDenied
        case .remote(let error):
            switch error.name {
            case ControlError.Name.permissionDenied: return .permissionDenied
            case ControlError.Name.unknownKind, ControlError.Name.unknownWidget, ControlError.Name.unknownKey:
                return .notFound
            case ControlError.Name.invalidParameter, ControlError.Name.legacyInvalidParameter: return .invalidArgument
            default: return .failure
            }
        case .connectionClosed, .timedOut, .badReply, .io: return .failure
        }
    }
}

/// `widgetctl`'s exit statuses. Argument errors exit with 64, as swift-argument-parser does.
public enum CommandExitStatus: Int32, Sendable, CaseIterable {
    case success = 0
    /// The daemon answered with an error not listed below, or the connection failed.
    case failure = 1
    /// The daemon rejected a parameter.
    case invalidArgument = 2
    /// No daemon listens at the socket.
    case notRunning = 3
    /// The daemon refused the caller, or the socket cannot be opened.
    case permissionDenied = 4
    /// Unknown kind, widget or data key.
    case notFound = 5
}
