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
            try? Self.createPrivateDirectory(groupURL(group))
        }
    }

    /// Writes the value's file 0600 under a temporary name (a key never starts with a dot), then renames it.
    public func write(_ record: GroupDataRecord) throws {
        let directory = groupURL(record.group)
        try Self.createPrivateDirectory(directory)
        let final = directory.appendingPathComponent(record.key).path
        let temporary = directory.appendingPathComponent(".\(record.key).writing").path
        guard FileManager.default.createFile(atPath: temporary, contents: Data(Self.fileText(record).utf8),
                                             attributes: [.posixPermissions: 0o600]),
              rename(temporary, final) == 0
        else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: final, "reason": reason])
        }
    }

    /// Creates `directory` (and its parents) 0700.
    private static func createPrivateDirectory(_ directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
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
