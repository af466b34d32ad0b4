import Foundation
import WidgetProtocol
import WidgetSchedulerCore

/// The group data's files under a directory (the state directory's `groups/`): one directory per group, one file per
/// key, each replaced atomically (written, then renamed), so a provider never reads half a value and can judge
/// staleness by the timestamp.
public final class GroupDataDirectory: GroupDataStoring {
    /// The directory holding one directory per group.
    public let root: URL

    public init(root: URL) {
        self.root = root
    }

    public func directory(of group: String) -> String {
        groupURL(group).path
    }

    public func createDirectories(for groups: Set<String>) {
        for group in groups {
            try? FileManager.default.createDirectory(at: groupURL(group), withIntermediateDirectories: true)
        }
    }

    public func write(_ record: GroupDataRecord) throws {
        let directory = groupURL(record.group)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(Self.fileText(record).utf8).write(to: directory.appendingPathComponent(record.key), options: .atomic)
    }

    public func remove(group: String, key: String) {
        try? FileManager.default.removeItem(at: groupURL(group).appendingPathComponent(key))
    }

    /// What the file of `record` holds: its value and when it was set, and a newline.
    public static func fileText(_ record: GroupDataRecord) -> String {
        JSONValue.object(["value": .string(record.value),
                          "updatedAt": .string(RFC3339.string(from: record.updatedAt))]).jsonText() + "\n"
    }

    private func groupURL(_ group: String) -> URL {
        root.appendingPathComponent(group, isDirectory: true)
    }
}
