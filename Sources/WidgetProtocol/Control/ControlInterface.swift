/// The names of the control interface and of its methods.
public enum ControlInterface {
    /// The daemon's Varlink interface.
    public static let name = "io.widgetscheduler.Scheduler"
    /// The standard Varlink service interface every server implements.
    public static let service = "org.varlink.service"
    /// The largest message either side accepts, in bytes, NUL excluded (1 MiB).
    public static let maximumMessageSize = 1 << 20
    /// Where the daemon listens unless told otherwise.
    public static let defaultSocketPath = "/run/widget-scheduler/control.socket"
    /// The environment variable that overrides the socket path for `widgetctl`.
    public static let socketEnvironmentVariable = "WIDGET_SCHEDULER_SOCKET"
}

/// Every method of `io.widgetscheduler.Scheduler`.
public enum ControlMethod: String, Sendable, Hashable, CaseIterable, Codable {
    case reload = "Reload"
    case list = "List"
    case status = "Status"
    case kinds = "Kinds"
    case add = "Add"
    case remove = "Remove"
    case configure = "Configure"
    case options = "Options"
    case snapshot = "Snapshot"
    case timeline = "Timeline"
    case budget = "Budget"
    case watch = "Watch"
    case stack = "Stack"
    case dataSet = "DataSet"
    case dataGet = "DataGet"
    case dataList = "DataList"
    case dataDelete = "DataDelete"
    case views = "Views"
    case image = "Image"

    /// The fully qualified name, e.g. `io.widgetscheduler.Scheduler.Reload`.
    public var qualifiedName: String { ControlInterface.name + "." + rawValue }

    /// Whether the method changes state, so that only privileged peers or the kind's owners may call it.
    public var isPrivileged: Bool {
        switch self {
        case .reload, .add, .remove, .configure, .dataSet, .dataDelete: return true
        case .list, .status, .kinds, .options, .snapshot, .timeline, .budget, .watch, .stack, .dataGet, .dataList,
             .views, .image:
            return false
        }
    }

    /// Whether the method streams replies and must be called with `more: true`.
    public var requiresMore: Bool { self == .watch }

    /// The most bytes one reply may take, for a method whose reply can be far larger than its request (`Image`'s
    /// 2.8 MB of base64); nil for the others. The daemon refuses such a call with `BufferFull` (daemonBudget) while
    /// its buffers have less room than that left.
    public var largestReplyBytes: Int? { self == .image ? ImageMethod.largestReplyBytes : nil }

    /// The method named by a fully qualified name, if it belongs to this interface.
    public init?(qualifiedName: String) {
        let prefix = ControlInterface.name + "."
        guard qualifiedName.hasPrefix(prefix) else { return nil }
        self.init(rawValue: String(qualifiedName.dropFirst(prefix.count)))
    }
}
