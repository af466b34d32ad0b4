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

    /// A directory the daemon looks for provider manifests in, and what it found there at the last (re)load.
    public struct ProviderDirectory: Sendable, Hashable, Codable {
        public var path: String
        /// "read", "missing", "not a directory" or "unreadable".
        public var state: String
        /// Manifest files (`*.toml`) read from it, good or bad.
        public var manifests: Int

        public init(path: String, state: String, manifests: Int) {
            self.path = path
            self.state = state
            self.manifests = manifests
        }
    }

    /// Writes of the state failing since `since`: the daemon is degraded until one succeeds.
    public struct StateWriteFailure: Sendable, Hashable, Codable {
        public var since: Date
        /// What the latest failed write said.
        public var cause: String
        /// Failed writes so far.
        public var attempts: Int
        /// When the daemon tries again.
        public var nextAttempt: Date

        public init(since: Date, cause: String, attempts: Int, nextAttempt: Date) {
            self.since = since
            self.cause = cause
            self.attempts = attempts
            self.nextAttempt = nextAttempt
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
        /// Whether changes wait for the daemon's paced state write: until it, a kill -9 would lose them (runs whose
        /// results are lost run again after the restart; nothing a client was told is among them).
        public var stateWritePending: Bool
        public var socket: String
        /// The provider manifest directories, in the order they are read (a later one's file replaces an earlier
        /// one's of the same name); absent from daemons older than this field.
        public var providerDirectories: [ProviderDirectory]?
        /// Set while the daemon cannot write its state.
        public var stateNotWritten: StateWriteFailure?

        public init(
            version: String, pid: Int, startedAt: Date, status: String, widgets: Int, kinds: Int, running: Int,
            pending: Int, quarantined: Int, nextReload: NextReload?, settings: Settings, stateDirectory: String,
            stateWritePending: Bool = false, socket: String, providerDirectories: [ProviderDirectory]? = nil,
            stateNotWritten: StateWriteFailure? = nil
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
            self.stateWritePending = stateWritePending
            self.socket = socket
            self.providerDirectories = providerDirectories
            self.stateNotWritten = stateNotWritten
        }
    }
}
