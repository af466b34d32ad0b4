import Foundation
import TOMLKit
import WidgetProtocol
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

    /// Parses configuration text; `file` names it in errors.
    public static func parse(_ text: String, file: String, defaults: SchedulerSettings) throws(Problem)
        -> SchedulerSettings
    {
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
        var settings = defaults
        let known = ["minimum-interval", "daily-budget", "burst-budget", "max-concurrent-runs", "coalesce-window",
                     "developer-kinds", "backoff-initial", "backoff-maximum", "quarantine-threshold"]
        for key in fields.keys.sorted() where !known.contains(key) {
            throw Problem(file: file, key: key, message: "unknown key (known: \(known.joined(separator: ", ")))")
        }
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
        try integer("max-concurrent-runs", \.maxConcurrentRuns)
        try integer("quarantine-threshold", \.quarantineThreshold)
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
