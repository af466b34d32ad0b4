import WidgetProtocol

/// Why a call to the daemon failed, each with a one-line message (`widgetctl` adds an exit status to each).
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
        case .timedOut(let seconds):
            let whole = Int64(exactly: seconds.rounded()).map(String.init) ?? "\(seconds)"
            return "no answer from the daemon within \(whole) s"
        case .badReply(let detail): return "unexpected reply from the daemon: \(detail)"
        case .io(let detail): return detail
        }
    }
}
