import WidgetProtocol

extension RawVarlinkConnection {
    /// A call of the control interface's `method` and its reply's parameters (`call(_:_:timeout:)` by name).
    public func call(_ method: ControlMethod, _ parameters: [String: JSONValue]? = nil, timeout: Double = 10) throws
        -> [String: JSONValue]
    {
        try call(method.qualifiedName, parameters, timeout: timeout)
    }

    /// Sends a call of the control interface's `method`, NUL-terminated.
    @discardableResult
    public func send(method: ControlMethod, parameters: [String: JSONValue]? = nil) -> Bool {
        send(method: method.qualifiedName, parameters: parameters)
    }

    /// `List`, decoded.
    public func list() throws -> [WidgetSummary] {
        let reply = try call(.list)
        do {
            return try VarlinkCoding.decode(ListMethod.Reply.self, from: reply).widgets
        } catch {
            throw Failure("List: \(error)")
        }
    }

    /// `Add` of `kind` with `parameters`; the new id.
    public func add(_ kind: String, parameters: [String: JSONValue] = [:]) throws -> String {
        let reply = try call(.add, ["kind": .string(kind), "parameters": .object(parameters)])
        guard let id = reply["id"]?.stringValue else { throw Failure("Add gave no id: \(reply)") }
        return id
    }
}
