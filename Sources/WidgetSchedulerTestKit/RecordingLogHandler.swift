import Logging
import Synchronization

/// A swift-log handler that keeps every entry in memory, standing in for the journal in tests.
public struct RecordingLogHandler: LogHandler {
    /// One logged entry with its metadata as journal fields.
    public struct Entry: Sendable, Hashable {
        public var level: Logger.Level
        public var message: String
        public var fields: [String: String]
    }

    /// The shared list the handler appends to.
    public final class Journal: Sendable {
        private let storage = Mutex<[Entry]>([])

        public init() {}

        public var entries: [Entry] { storage.withLock { $0 } }

        /// Entries carrying `MESSAGE_ID=id`.
        public func entries(messageID id: String) -> [Entry] {
            entries.filter { $0.fields["MESSAGE_ID"] == id }
        }

        func append(_ entry: Entry) { storage.withLock { $0.append(entry) } }
    }

    public let journal: Journal
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .trace

    public init(journal: Journal) {
        self.journal = journal
    }

    /// A logger writing into `journal`.
    public static func logger(_ journal: Journal) -> Logger {
        Logger(label: "test") { _ in RecordingLogHandler(journal: journal) }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields: [String: String] = [:]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { _, new in new }) {
            fields[key] = "\(value)"
        }
        journal.append(Entry(level: event.level, message: event.message.description, fields: fields))
    }
}
