/// Why the SDK could not answer a request. Printed on stderr; the process then exits with `exitCode`.
public enum ProviderKitError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Stdin was not a v1 request.
    case invalidRequest(String)
    /// The request's protocol version is not 1.
    case unsupportedProtocol(Int)
    /// No widget in this executable serves the kind.
    case unknownKind(String, served: [String])
    /// The request kind is not one of the protocol's.
    case unknownRequest(String)
    /// An entry's content could not be encoded as JSON.
    case encoding(String)
    /// A date, duration or score of the answer is outside what the protocol carries; the text names the entry and
    /// the field.
    case outOfRange(String)
    /// `TimelineProviderContext.saveImage(_:name:)` refused the name or could not write the file.
    case imageNotSaved(name: String, reason: String)

    public var description: String {
        switch self {
        case .invalidRequest(let detail): return "invalid request on stdin: \(detail)"
        case .unsupportedProtocol(let version): return "unsupported protocol version \(version) (this SDK speaks 1)"
        case .unknownKind(let kind, let served):
            return "unknown kind \"\(kind)\" (this provider serves: \(served.joined(separator: ", ")))"
        case .unknownRequest(let request): return "unknown request \"\(request)\""
        case .encoding(let detail): return "could not encode the answer: \(detail)"
        case .outOfRange(let detail): return "could not answer: \(detail)"
        case .imageNotSaved(let name, let reason): return "could not save the image \"\(name)\": \(reason)"
        }
    }

    /// 2 for a request this provider cannot understand, 1 for a failure to answer.
    public var exitCode: Int32 {
        switch self {
        case .encoding, .outOfRange, .imageNotSaved: return 1
        default: return 2
        }
    }
}
