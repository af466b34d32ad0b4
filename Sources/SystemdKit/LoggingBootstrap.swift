import Glibc
import Logging

/// Chooses and installs the process's swift-log backend. The executables call it once, first thing in `main`.
public enum LoggingBootstrap {
    /// Where log entries go.
    public enum Target: String, Sendable, CaseIterable {
        /// Structured entries through sd_journal_sendv.
        case journal
        /// `LEVEL message KEY=value` lines on stderr.
        case stderr
    }

    /// journald's native-protocol socket; its presence means journald is running.
    public static let journalSocketPath = "/run/systemd/journal/socket"

    /// The target for this process: `LOG_TARGET=journal|stderr` in the environment if set, else the journal when
    /// journald's socket exists and stderr is not a terminal (so a daemon run by hand in a shell logs where its user
    /// is looking), else stderr.
    public static func automaticTarget(
        environment: [String: String] = currentEnvironment(),
        journalSocketExists: Bool = access(journalSocketPath, F_OK) == 0,
        stderrIsTerminal: Bool = isatty(2) == 1
    ) -> Target {
        if let requested = environment["LOG_TARGET"].flatMap(Target.init(rawValue:)) {
            return requested
        }
        return journalSocketExists && !stderrIsTerminal ? .journal : .stderr
    }

    /// Installs the handler for `target` as swift-log's global backend. Call it once per process.
    public static func bootstrap(identifier: String, level: Logger.Level = .info, target: Target = automaticTarget()) {
        LoggingSystem.bootstrap { _ in
            makeHandler(identifier: identifier, level: level, target: target)
        }
    }

    /// The handler `bootstrap` installs, for callers that build their own `Logger`s.
    public static func makeHandler(
        identifier: String, level: Logger.Level, target: Target, metadataProvider: Logger.MetadataProvider? = nil
    ) -> any LogHandler {
        switch target {
        case .journal:
            return JournalLogHandler(identifier: identifier, level: level, metadataProvider: metadataProvider)
        case .stderr:
            return StderrLogHandler(level: level, metadataProvider: metadataProvider)
        }
    }

    /// The process environment as a dictionary.
    public static func currentEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        var cursor = environ
        while let entry = cursor.pointee {
            let assignment = String(cString: entry)
            if let equals = assignment.firstIndex(of: "=") {
                result[String(assignment[..<equals])] = String(assignment[assignment.index(after: equals)...])
            }
            cursor += 1
        }
        return result
    }
}
