import Foundation
import Testing
import WidgetProtocol
import WidgetSchedulerCore
import WidgetSchedulerRuntime

/// The group data's files on disk: one directory per group, one file per key, replaced whole.
struct GroupDataDirectoryTests {
    @Test func aValueIsOneFileInItsGroupsDirectoryReplacedWholeAndRemovedWithItsKey() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("groups-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let files = GroupDataDirectory(root: root)
        files.createDirectories(for: ["news"])
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: files.directory(of: "news"), isDirectory: &isDirectory))
        #expect(isDirectory.boolValue)
        let date = Date(timeIntervalSince1970: 1_800_000_000)
        try files.write(GroupDataRecord(group: "weather", key: "location", value: "Oslo", updatedAt: date))
        try files.write(GroupDataRecord(group: "weather", key: "location", value: "Paris", updatedAt: date))
        let path = files.directory(of: "weather") + "/location"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasSuffix("\n"))
        let value = try #require(JSONValue(jsonText: text)?.objectValue)
        #expect(value == ["value": .string("Paris"), "updatedAt": .string(RFC3339.string(from: date))])
        files.remove(group: "weather", key: "location")
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
