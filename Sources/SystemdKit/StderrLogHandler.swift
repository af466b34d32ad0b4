import Glibc
import Logging

/// A swift-log handler for when journald is absent: one line per entry on stderr,
/// `LEVEL message KEY=value ...`, with the same field names the journal would get.
public struct StderrLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    public var logLevel: Logger.Level

    /// Creates a handler writing entries at `level` and above to file descriptor 2.
    public init(level: Logger.Level = .info, metadataProvider: Logger.MetadataProvider? = nil) {
        self.logLevel = level
        self.metadataProvider = metadataProvider
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let merged = JournalFields.merge(
            handler: metadata, provider: metadataProvider, event: event.metadata, error: event.error)
        var line = Array(Self.line(level: event.level, message: event.message.description, metadata: merged).utf8)
        line.append(UInt8(ascii: "\n"))
        // A single write(2) per entry keeps lines whole when several processes share the stream.
        line.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            var offset = 0
            while offset < bytes.count {
                let written = write(2, base + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return }
                offset += written
            }
        }
    }

    /// The rendered line, without the newline: `INFO message KEY=value KEY2="two words"`.
    public static func line(level: Logger.Level, message: String, metadata: Logger.Metadata) -> String {
        var line = level.rawValue.uppercased() + " " + message.replacingNewlines()
        for field in JournalFields.metadataFields(metadata) {
            line += " \(field.name)=\(quoted(field.value))"
        }
        return line
    }

    /// Values with spaces, quotes or control characters are double-quoted with C-style escapes.
    static func quoted(_ value: String) -> String {
        let needsQuotes = value.isEmpty || value.unicodeScalars.contains { scalar in
            scalar == " " || scalar == "\"" || scalar == "\\" || scalar.value < 0x20 || scalar.value == 0x7f
        }
        guard needsQuotes else { return value }
        var result = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7f {
                    result += "\\x" + String(scalar.value, radix: 16)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}

extension String {
    /// Multi-line messages would break the one-entry-per-line format.
    fileprivate func replacingNewlines() -> String {
        split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).joined(separator: " ")
    }
}
