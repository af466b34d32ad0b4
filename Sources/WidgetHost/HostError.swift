import WidgetControlClient
import WidgetProtocol

/// A request the host could not carry out, in words for the person who made it: the daemon's refusal as it gave it,
/// the field it concerns when it names one, and the HTTP status that fits.
public struct HostError: Error, Sendable, Hashable, CustomStringConvertible {
    public var status: Int
    public var message: String
    /// The parameter the daemon objected to (`InvalidParameter`), so the page can show the message beside it.
    public var field: String?

    public init(status: Int, message: String, field: String? = nil) {
        self.status = status
        self.message = message
        self.field = field
    }

    public var description: String { message }

    /// The daemon's answer, or the failure to reach it.
    public init(_ error: ControlClientError) {
        switch error {
        case .remote(let remote):
            var field: String?
            if case .string(let parameter)? = remote.parameters["parameter"] { field = parameter }
            let status: Int
            switch remote.name {
            case ControlError.Name.permissionDenied: status = 403
            case ControlError.Name.unknownKind, ControlError.Name.unknownWidget, ControlError.Name.unknownKey,
                 ControlError.Name.noSuchImage:
                status = 404
            case ControlError.Name.invalidParameter, ControlError.Name.legacyInvalidParameter: status = 422
            case ControlError.Name.providerFailed: status = 502
            case ControlError.Name.tooManyConnections, ControlError.Name.bufferFull: status = 503
            default: status = 500
            }
            self.init(status: status, message: "The daemon refused: \(remote.message)", field: field)
        case .daemonNotRunning, .socketNotAccessible, .connectionClosed:
            self.init(status: 503, message: "The widget daemon cannot be reached: \(error.description)")
        case .timedOut:
            self.init(status: 504, message: "The widget daemon did not answer in time: \(error.description)")
        case .badReply, .io:
            self.init(status: 502, message: "The widget daemon's answer could not be read: \(error.description)")
        }
    }

    /// An arrangement the layout refused.
    public init(_ refusal: HomeLayout.Refusal) {
        self.init(status: 409, message: refusal.description)
    }

    static func badRequest(_ message: String, field: String? = nil) -> HostError {
        HostError(status: 400, message: message, field: field)
    }
}
