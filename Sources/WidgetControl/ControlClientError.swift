import WidgetProtocol

/// Why a `widgetctl` call failed, each with a one-line message and an exit status.
public enum ControlClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Nothing listens at the socket path (no file, or a stale socket).
    case daemonNotRunning(path: String, reason: String)
    /// The socket exists but this user may not connect to it.
    case socketNotAccessible(path: String, reason: String)
    /// The daemon answered with a Varlink error.
    case remote(ControlError)
    /// The daemon closed the connection before the reply was complete.
    case connectionClosed
    /// No reply within the timeout.
    case timedOut(seconds: Double)
    /// The daemon's reply was not a Varlink reply of the expected shape.
    case badReply(String)
    /// A system call on the socket failed.
    case io(String)

    public var description: String {
        switch self {
        case .daemonNotRunning(let path, let reason):
            return "widget-scheduler is not running (no daemon at \(path): \(reason))"
        case .socketNotAccessible(let path, let reason): return "cannot connect to \(path): \(reason)"
        case .remote(let error): return error.message
        case .connectionClosed: return "the daemon closed the connection before answering"
        case .timedOut(let seconds): return "no answer from the daemon within \(Int(seconds)) s"
        case .badReply(let detail): return "unexpected reply from the daemon: \(detail)"
        case .io(let detail): return detail
        }
    }

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
            case ControlError.Name.invalidParameter, ControlError.Name.serviceInvalidParameter: return .invalidArgument
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
