import Foundation
import WidgetSchedulerRuntime

/// A `GroupDataStoring` that keeps the group files in memory, with the text `GroupDataDirectory` would write.
public final class InMemoryGroupData: GroupDataStoring {
    /// Where the directories would be: what providers are told.
    public let root: URL
    /// The directories created, by group.
    public private(set) var directories: Set<String> = []
    /// Each file's text, by group and key.
    public private(set) var files: [String: [String: String]] = [:]
    /// While set, `write` fails with this error, as a full disk would.
    public var writeError: (any Error)?

    public init(root: URL = URL(fileURLWithPath: "/var/lib/widget-scheduler/groups")) {
        self.root = root
    }

    public func directory(of group: String) -> String {
        root.appendingPathComponent(group, isDirectory: true).path
    }

    public func createDirectories(for groups: Set<String>) {
        directories.formUnion(groups)
    }

    public func write(_ record: GroupDataRecord) throws {
        if let writeError { throw writeError }
        directories.insert(record.group)
        files[record.group, default: [:]][record.key] = GroupDataDirectory.fileText(record)
    }

    public func remove(group: String, key: String) {
        files[group]?[key] = nil
    }
}
