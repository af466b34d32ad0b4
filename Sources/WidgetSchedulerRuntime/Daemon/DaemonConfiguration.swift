import Foundation
import TOMLKit
import WidgetProtocol
import WidgetProviders
import WidgetSchedulerCore

/// The daemon's configuration file (TOML). Every key is optional; a missing file means the defaults.
///
/// ```
/// minimum-interval = 300        # seconds between a widget's runs (budgeted ones)
/// daily-budget = 72             # budgeted runs per widget per day
/// burst-budget = 12             # the bucket's capacity
/// max-concurrent-runs = 2       # default: the number of CPUs
/// coalesce-window = 1           # seconds a wake-up may be delayed to serve several at once
/// developer-kinds = ["weather"] # kinds without budget and floor (logged)
/// options-rate = 30             # provider runs a uid may start a minute through Options
/// provider-sandbox = true       # providers write only beneath provider-writable-paths (Landlock); read at start
/// provider-writable-paths = ["/tmp", "/var/tmp", "/dev"]
/// max-connections = 4096         # control connections at once (kept below the descriptor limit)
/// max-connections-per-user = 64  # per uid; root and the admin group are not held to it
/// admin-reserved-connections = 32 # the last of max-connections, kept for root and the admin group
/// message-timeout = 30           # seconds from a message's first byte to its end
/// idle-timeout = 60              # seconds a connection may stay without traffic while no call of it is open
/// buffer-budget = "64M"          # bytes all control connections may hold in the daemon
/// watch-backlog-limit = "4M"     # bytes of a stream's replies that may wait unread
/// ```
public enum DaemonConfiguration {
    /// The default path.
    public static let defaultPath = "/etc/widget-scheduler/widget-scheduler.toml"

    /// A configuration error, naming the file and the key.
    public struct Problem: Error, CustomStringConvertible, Sendable {
        public var file: String
        public var key: String?
        public var message: String
        public var description: String { key.map { "\(file): \"\($0)\": \(message)" } ?? "\(file): \(message)" }
    }

    /// The settings the file at `path` gives over `defaults`. A file that does not exist gives the defaults.
    public static func load(path: String, defaults: SchedulerSettings) throws(Problem) -> SchedulerSettings {
        guard FileManager.default.fileExists(atPath: path) else { return defaults }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw Problem(file: path, key: nil, message: "cannot be read")
        }
        return try parse(text, file: path, defaults: defaults)
    }

    /// How providers are sandboxed: read once, at start (a restricted thread cannot be widened again).
    public struct ProviderSandboxSettings: Sendable, Equatable {
        /// Whether providers run under Landlock, writing only beneath `writablePaths`.
        public var enabled = true
        /// Absolute paths beneath which providers may create, change and remove files.
        public var writablePaths = ProviderSandbox.defaultWritablePaths

        public init(enabled: Bool = true, writablePaths: [String] = ProviderSandbox.defaultWritablePaths) {
            self.enabled = enabled
            self.writablePaths = writablePaths
        }
    }

    /// Every key the file may have.
    static let knownKeys = [
        "minimum-interval", "daily-budget", "burst-budget", "max-concurrent-runs", "coalesce-window", "developer-kinds",
        "backoff-initial", "backoff-maximum", "quarantine-threshold", "daemon-death-quarantine-threshold",
        "options-rate", "provider-sandbox", "provider-writable-paths",
    ] + ControlLimits.keys

    /// The provider sandbox settings of the file at `path`; a file that does not exist gives the defaults.
    public static func loadSandbox(path: String) throws(Problem) -> ProviderSandboxSettings {
        guard FileManager.default.fileExists(atPath: path) else { return ProviderSandboxSettings() }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw Problem(file: path, key: nil, message: "cannot be read")
        }
        return try parseSandbox(text, file: path)
    }

    /// Parses the provider sandbox settings of configuration text; `file` names it in errors.
    public static func parseSandbox(_ text: String, file: String) throws(Problem) -> ProviderSandboxSettings {
        let fields = try fields(of: text, file: file)
        var sandbox = ProviderSandboxSettings()
        switch fields["provider-sandbox"] {
        case nil: break
        case .bool(let enabled)?: sandbox.enabled = enabled
        case let value?:
            throw Problem(file: file, key: "provider-sandbox",
                          message: "expected true or false, found \(value.typeName)")
        }
        switch fields["provider-writable-paths"] {
        case nil: break
        case .array(let items)?:
            var paths: [String] = []
            for (index, item) in items.enumerated() {
                guard let path = item.stringValue, path.hasPrefix("/") else {
                    throw Problem(file: file, key: "provider-writable-paths",
                                  message: "item \(index + 1): expected an absolute path, found \(item.typeName)"
                                      + (item.stringValue.map { " \"\($0)\"" } ?? ""))
                }
                paths.append(path)
            }
            sandbox.writablePaths = paths
        case let value?:
            throw Problem(file: file, key: "provider-writable-paths",
                          message: "expected an array of absolute paths, found \(value.typeName)")
        }
        return sandbox
    }

    /// The control socket's limits in the file at `path`; a file that does not exist gives the defaults.
    public static func loadControlLimits(path: String) throws(Problem) -> ControlLimits {
        guard FileManager.default.fileExists(atPath: path) else { return ControlLimits() }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw Problem(file: path, key: nil, message: "cannot be read")
        }
        return try parseControlLimits(text, file: path)
    }

    /// Parses the control socket's limits of configuration text; `file` names it in errors.
    public static func parseControlLimits(_ text: String, file: String) throws(Problem) -> ControlLimits {
        let fields = try fields(of: text, file: file)
        var limits = ControlLimits()
        func integer(_ key: String, _ path: WritableKeyPath<ControlLimits, Int>) throws(Problem) {
            switch fields[key] {
            case nil: return
            case .integer(let value)?: limits[keyPath: path] = Int(clamping: value)
            case let value?:
                throw Problem(file: file, key: key, message: "expected an integer, found \(value.typeName)")
            }
        }
        func seconds(_ key: String, _ path: WritableKeyPath<ControlLimits, Double>) throws(Problem) {
            switch fields[key] {
            case nil: return
            case .integer(let value)?: limits[keyPath: path] = Double(value)
            case .number(let value)?: limits[keyPath: path] = value
            case let value?:
                throw Problem(file: file, key: key, message: "expected a number of seconds, found \(value.typeName)")
            }
        }
        func size(_ key: String, _ path: WritableKeyPath<ControlLimits, Int>) throws(Problem) {
            guard let value = fields[key] else { return }
            guard let bytes = ManifestParser.memorySize(value) else {
                throw Problem(file: file, key: key, message: "expected a size such as \"64M\" or a number of bytes, "
                              + "found \(value.jsonText())")
            }
            limits[keyPath: path] = bytes
        }
        try integer("max-connections", \.maximumConnections)
        try integer("max-connections-per-user", \.maximumConnectionsPerUser)
        try integer("admin-reserved-connections", \.adminReservedConnections)
        try seconds("message-timeout", \.messageTimeout)
        try seconds("idle-timeout", \.idleTimeout)
        try size("buffer-budget", \.bufferBudget)
        try size("watch-backlog-limit", \.watchBacklogLimit)
        if let problem = limits.problems().first {
            let key = problem.split(separator: " ").first.map(String.init)
            throw Problem(file: file, key: key, message: String(problem.dropFirst((key?.count ?? 0) + 1)))
        }
        return limits
    }

    /// The document's top-level values; unknown keys are errors naming them.
    private static func fields(of text: String, file: String) throws(Problem) -> [String: JSONValue] {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw Problem(file: file, key: nil, message: "not valid TOML: \(error.description) (line "
                          + "\(error.source.begin.line), column \(error.source.begin.column))")
        } catch {
            throw Problem(file: file, key: nil, message: "not valid TOML: \(error)")
        }
        guard case .object(let fields)? = JSONValue(jsonText: table.convert(to: .json)) else {
            throw Problem(file: file, key: nil, message: "could not read the document's values")
        }
        for key in fields.keys.sorted() where !knownKeys.contains(key) {
            throw Problem(file: file, key: key, message: "unknown key (known: \(knownKeys.joined(separator: ", ")))")
        }
        return fields
    }

    /// Parses configuration text; `file` names it in errors.
    public static func parse(_ text: String, file: String, defaults: SchedulerSettings) throws(Problem)
        -> SchedulerSettings
    {
        let fields = try fields(of: text, file: file)
        var settings = defaults
        func number(_ key: String, _ path: WritableKeyPath<SchedulerSettings, Double>) throws(Problem) {
            switch fields[key] {
            case nil: return
            case .integer(let value)?: settings[keyPath: path] = Double(value)
            case .number(let value)?: settings[keyPath: path] = value
            case let value?: throw Problem(file: file, key: key, message: "expected a number, found \(value.typeName)")
            }
        }
        func integer(_ key: String, _ path: WritableKeyPath<SchedulerSettings, Int>) throws(Problem) {
            switch fields[key] {
            case nil: return
            case .integer(let value)?: settings[keyPath: path] = Int(clamping: value)
            case let value?:
                throw Problem(file: file, key: key, message: "expected an integer, found \(value.typeName)")
            }
        }
        try number("minimum-interval", \.minimumInterval)
        try number("daily-budget", \.dailyBudget)
        try number("burst-budget", \.burstBudget)
        try number("coalesce-window", \.coalesceWindow)
        try number("backoff-initial", \.backoffInitial)
        try number("backoff-maximum", \.backoffMaximum)
        try number("options-rate", \.optionsRate)
        try integer("max-concurrent-runs", \.maxConcurrentRuns)
        try integer("quarantine-threshold", \.quarantineThreshold)
        try integer("daemon-death-quarantine-threshold", \.daemonDeathQuarantineThreshold)
        switch fields["developer-kinds"] {
        case nil: break
        case .array(let items)? where items.allSatisfy({ $0.stringValue != nil }):
            settings.developerKinds = Set(items.compactMap(\.stringValue))
        case let value?:
            throw Problem(file: file, key: "developer-kinds", message: "expected an array of kind names, found "
                          + value.typeName)
        }
        if let problem = settings.problems().first {
            let key = problem.split(separator: " ").first.map(String.init)
            throw Problem(file: file, key: key, message: String(problem.dropFirst((key?.count ?? 0) + 1)))
        }
        return settings
    }
}
