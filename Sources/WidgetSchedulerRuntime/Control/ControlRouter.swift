import WidgetProtocol

/// Decides where a call goes: the server's own `org.varlink.service` answers, an error for unknown interfaces and
/// methods or a streaming method called without `more`, or the handler.
struct ControlRouter {
    /// Where one request goes.
    enum Route: Equatable {
        case respond(VarlinkResponse)
        case handler(ControlMethod)
    }

    let info: VarlinkServiceInfo

    func route(_ request: VarlinkRequest) -> Route {
        switch request.interface {
        case ControlInterface.service:
            return .respond(service(request))
        case ControlInterface.name:
            guard let method = ControlMethod(rawValue: request.member) else {
                return .respond(.error(.methodNotFound(request.method)))
            }
            if method.requiresMore && !request.wantsMore && !request.isOneway {
                return .respond(.error(.expectedMore()))
            }
            return .handler(method)
        default:
            return .respond(.error(.interfaceNotFound(request.interface)))
        }
    }

    private func service(_ request: VarlinkRequest) -> VarlinkResponse {
        switch request.member {
        case "GetInfo":
            return .reply(info)
        case "GetInterfaceDescription":
            guard case .string(let interface)? = request.parameters?["interface"] else {
                return .error(.serviceInvalidParameter("interface"))
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
