import WidgetProtocol

/// Decides where a call goes: the server's own `org.varlink.service` answers, an error for unknown interfaces and
/// methods, a parameter the method does not declare, an upgrade, or a streaming method called without `more`, or
/// the handler.
struct ControlRouter {
    /// Where one request goes.
    enum Route: Equatable {
        case respond(VarlinkResponse)
        case handler(ControlMethod)
    }

    let info: VarlinkServiceInfo

    /// The input parameters of `org.varlink.service`'s methods.
    static let serviceInputs = VarlinkMethodInputs.parse(VarlinkServiceInfo.serviceDescription)

    func route(_ request: VarlinkRequest) -> Route {
        // No method here hands the connection over to another protocol: saying so beats ignoring the flag and
        // leaving the client waiting to speak it.
        if request.wantsUpgrade {
            return .respond(.error(.invalidParameter("upgrade", reason: "no method of \(request.interface) upgrades "
                + "the connection")))
        }
        switch request.interface {
        case ControlInterface.service:
            if let error = Self.undeclared(request, inputs: Self.serviceInputs) { return .respond(.error(error)) }
            return .respond(service(request))
        case ControlInterface.name:
            guard let method = ControlMethod(rawValue: request.member) else {
                return .respond(.error(.methodNotFound(request.method)))
            }
            if let error = Self.undeclared(request, inputs: ControlInterface.methodInputs) {
                return .respond(.error(error))
            }
            if method.requiresMore && !request.wantsMore && !request.isOneway {
                return .respond(.error(.expectedMore()))
            }
            return .handler(method)
        default:
            return .respond(.error(.interfaceNotFound(request.interface)))
        }
    }

    /// `InvalidParameter` for the first parameter (by name) that the method does not declare: a misspelt
    /// `"foregound": true` silently ignored would do something else than the caller asked.
    static func undeclared(_ request: VarlinkRequest, inputs: [String: Set<String>]) -> ControlError? {
        // An unknown method is answered MethodNotFound, whatever its parameters.
        guard let parameters = request.parameters, !parameters.isEmpty, let declared = inputs[request.member] else {
            return nil
        }
        guard let unknown = parameters.keys.sorted().first(where: { !declared.contains($0) }) else { return nil }
        let expected = declared.isEmpty ? "it takes none" : "it takes " + declared.sorted().joined(separator: ", ")
        return .invalidParameter(unknown, reason: "is not a parameter of \(request.member) (\(expected))")
    }

    private func service(_ request: VarlinkRequest) -> VarlinkResponse {
        switch request.member {
        case "GetInfo":
            return .reply(info)
        case "GetInterfaceDescription":
            guard case .string(let interface)? = request.parameters?["interface"] else {
                return .error(.invalidParameter("interface", reason: "is required, a string"))
            }
            switch interface {
            case ControlInterface.name: return .reply(["description": .string(ControlInterface.description)])
            case ControlInterface.service:
                return .reply(["description": .string(VarlinkServiceInfo.serviceDescription)])
            default: return .error(.interfaceNotFound(interface))
            }
        default:
            return .error(.methodNotFound(request.method))
        }
    }
}
