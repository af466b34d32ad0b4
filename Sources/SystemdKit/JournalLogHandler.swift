import CSystemd
import Glibc
import Logging

/// A swift-log handler that writes structured entries to journald with sd_journal_sendv(3).
///
/// Each entry carries MESSAGE, PRIORITY, SYSLOG_IDENTIFIER, CODE_FILE/LINE/FUNC and one field per metadata key
/// (see `JournalFields.fieldName(forMetadataKey:)`), so `journalctl WIDGET_KIND=weather` and `-o json` work.
public struct JournalLogHandler: LogHandler {
    /// The SYSLOG_IDENTIFIER of every entry, e.g. "widget-scheduler".
    public let identifier: String
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    public var logLevel: Logger.Level

    /// Creates a handler logging as `identifier` at `level` and above.
    public init(identifier: String, level: Logger.Level = .info, metadataProvider: Logger.MetadataProvider? = nil) {
        self.identifier = identifier
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
        let fields = JournalFields.entry(
            message: event.message.description, level: event.level, identifier: identifier, metadata: merged,
            file: event.file, line: event.line, function: event.function)
        Self.send(fields)
    }

    /// Sends one entry; returns sd_journal_sendv's result (0 or a negative errno). journald being absent is not an
    /// error here: the datagram is simply dropped.
    @discardableResult
    public static func send(_ fields: [(name: String, value: String)]) -> Int32 {
        // One contiguous buffer holding "NAME=value" for every field, with an iovec pointing into it per field.
        var buffer: [UInt8] = []
        var ranges: [Range<Int>] = []
        for field in fields {
            let start = buffer.count
            buffer.append(contentsOf: field.name.utf8)
            buffer.append(UInt8(ascii: "="))
            buffer.append(contentsOf: field.value.utf8)
            ranges.append(start..<buffer.count)
        }
        return buffer.withUnsafeMutableBytes { bytes in
            guard let base = bytes.baseAddress else { return -EINVAL }
            var vectors = ranges.map { range in
                iovec(iov_base: base + range.lowerBound, iov_len: range.count)
            }
            return sd_journal_sendv(&vectors, Int32(vectors.count))
        }
    }
}
