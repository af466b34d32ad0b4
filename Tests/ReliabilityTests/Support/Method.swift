import WidgetProtocol

/// The control interface's qualified method names.
enum Method {
    static func named(_ member: String) -> String { "\(ControlInterface.name).\(member)" }
    static let list = named("List")
    static let status = named("Status")
    static let reload = named("Reload")
    static let add = named("Add")
    static let budget = named("Budget")
}
