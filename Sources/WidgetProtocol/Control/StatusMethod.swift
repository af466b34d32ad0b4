import Foundation

/// `Status`: the daemon as a whole.
public enum StatusMethod: VarlinkMethod {
    public static let method = ControlMethod.status
    public typealias Parameters = NoParameters

    /// The next planned run across all widgets.
    public struct NextReload: Sendable, Hashable, Codable {
        public var widget: String
        public var kind: String
        public var at: Date
        public var reason: String

        public init(widget: String, kind: String, at: Date, reason: String) {
            self.widget = widget
            self.kind = kind
            self.at = at
            self.reason = reason
        }
    }

    /// The scheduling numbers in force (config file values).
    public struct Settings: Sendable, Hashable, Codable {
        public var minimumInterval: Double
        public var dailyBudget: Double
        public var burstBudget: Double
        public var maxConcurrentRuns: Int
        public var coalesceWindow: Double
        public var developerKinds: [String]

        public init(
            minimumInterval: Double, dailyBudget: Double, burstBudget: Double, maxConcurrentRuns: Int,
            coalesceWindow: Double, developerKinds: [String]
        ) {
            self.minimumInterval = minimumInterval
            self.dailyBudget = dailyBudget
            self.burstBudget = burstBudget
            self.maxConcurrentRuns = maxConcurrentRuns
            self.coalesceWindow = coalesceWindow
            self.developerKinds = developerKinds
        }
    }

    public struct Reply: Sendable, Hashable, Codable {
        public var version: String
        public var pid: Int
        public var startedAt: Date
        /// The one-line summary also sent as `STATUS=` to systemd.
        public var status: String
        public var widgets: Int
        public var kinds: Int
        public var running: Int
        public var pending: Int
        public var quarantined: Int
        public var nextReload: NextReload?
        public var settings: Settings
        public var stateDirectory: String
        public var socket: String

        public init(
            version: String, pid: Int, startedAt: Date, status: String, widgets: Int, kinds: Int, running: Int,
            pending: Int, quarantined: Int, nextReload: NextReload?, settings: Settings, stateDirectory: String,
            socket: String
        ) {
            self.version = version
            self.pid = pid
            self.startedAt = startedAt
            self.status = status
            self.widgets = widgets
            self.kinds = kinds
            self.running = running
            self.pending = pending
            self.quarantined = quarantined
            self.nextReload = nextReload
            self.settings = settings
            self.stateDirectory = stateDirectory
            self.socket = socket
        }
    }
}
