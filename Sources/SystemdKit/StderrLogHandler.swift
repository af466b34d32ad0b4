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
        var line = Self.lineBytes(level: event.level, message: event.message.description, metadata: merged)
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
        String(decoding: lineBytes(level: level, message: message, metadata: metadata), as: UTF8.self)
    }

    /// `line(level:message:metadata:)` as UTF-8 bytes, written into one buffer: every daemon log line passes here.
    static func lineBytes(level: Logger.Level, message: String, metadata: Logger.Metadata) -> [UInt8] {
        let fields = JournalFields.metadataFields(metadata)
        var line: [UInt8] = []
        line.reserveCapacity(message.utf8.count + 16 + fields.count * 24)
        line.append(contentsOf: label(of: level).utf8)
        line.append(UInt8(ascii: " "))
        // Most messages are one line of printable text and go in as they are; others are split on their newlines.
        // Texts are copied and scanned through buffers, not the UTF-8 view's iterator: every line passes here.
        var text = message
        let printable = text.withUTF8 { utf8 in
            guard utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x80 }) else { return false }
            line.append(contentsOf: utf8)
            return true
        }
        if !printable {
            line.append(contentsOf: message.replacingNewlines().utf8)
        }
        for field in fields {
            line.append(UInt8(ascii: " "))
            var name = field.name
            name.withUTF8 { line.append(contentsOf: $0) }
            line.append(UInt8(ascii: "="))
            appendQuoted(field.value, to: &line)
        }
        return line
    }

    private static func label(of level: Logger.Level) -> String {
        switch level {
        case .trace: return "TRACE"
        case .debug: return "DEBUG"
        case .info: return "INFO"
        case .notice: return "NOTICE"
        case .warning: return "WARNING"
        case .error: return "ERROR"
        case .critical: return "CRITICAL"
        }
    }

    /// Whether the text is empty or holds a space, a quote, a backslash or a control character. Those are ASCII, and no
    /// byte of a multi-byte UTF-8 sequence is ASCII, so looking at the bytes is looking at the characters.
    private static func needsQuotes(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        utf8.isEmpty || utf8.contains { byte in
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20
                || byte == 0x7f
        }
    }

    /// Values with spaces, quotes or control characters are double-quoted with C-style escapes.
    static func quoted(_ value: String) -> String {
        var bytes: [UInt8] = []
        appendQuoted(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `quoted(value)` appended to `line` as UTF-8, byte by byte: the characters escaped are ASCII, and no byte of a
    /// multi-byte sequence is, so the other bytes go in as they are. Every value of every line passes here.
    static func appendQuoted(_ value: String, to line: inout [UInt8]) {
        var value = value
        value.withUTF8 { utf8 in
            guard needsQuotes(utf8) else {
                line.append(contentsOf: utf8)
                return
            }
            let backslash = UInt8(ascii: "\\")
            line.append(UInt8(ascii: "\""))
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "\""), backslash: line.append(contentsOf: [backslash, byte])
                case UInt8(ascii: "\n"): line.append(contentsOf: [backslash, UInt8(ascii: "n")])
                case UInt8(ascii: "\t"): line.append(contentsOf: [backslash, UInt8(ascii: "t")])
                case UInt8(ascii: "\r"): line.append(contentsOf: [backslash, UInt8(ascii: "r")])
                case 0..<0x20, 0x7f:
                    line.append(contentsOf: [backslash, UInt8(ascii: "x")])
                    line.append(contentsOf: String(byte, radix: 16).utf8)
                default: line.append(byte)
                }
            }
            line.append(UInt8(ascii: "\""))
        }
    }
}

extension String {
    /// Multi-line messages would break the one-entry-per-line format.
    fileprivate func replacingNewlines() -> String {
        split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).joined(separator: " ")
    }
}
