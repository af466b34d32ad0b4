import WidgetControl
import WidgetProtocol

/// The parameter types of a kind, asked of the daemon, so that `--param` text is sent in its type.
enum KindParameterTypes {
    /// `kind`'s parameter types by name; none when the daemon has no such kind (it then refuses the call itself).
    static func of(kind: String, _ client: ControlClient) throws(ControlClientError) -> [String: String] {
        let kinds = try client.call(KindsMethod.self, NoParameters()).kinds
        let parameters = kinds.first { $0.kind == kind }?.parameters ?? []
        return Dictionary(parameters.map { ($0.name, $0.type) }, uniquingKeysWith: { first, _ in first })
    }

    /// The parameter types of widget `id`'s kind; none when there is no such widget.
    static func of(widget id: String, _ client: ControlClient) throws(ControlClientError) -> [String: String] {
        guard let kind = try client.call(ListMethod.self, NoParameters()).widgets.first(where: { $0.id == id })?.kind
        else { return [:] }
        return try of(kind: kind, client)
    }
}
