import Foundation
import Testing

/// Snapshot files under Tests/WidgetViewsTests/Snapshots, compared byte for byte. Set `WIDGET_VIEWS_RECORD=1` to
/// write them instead (then review the diff before committing).
enum Snapshot {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")

    static var isRecording: Bool { ProcessInfo.processInfo.environment["WIDGET_VIEWS_RECORD"] == "1" }

    /// Checks `text` against the snapshot `name`, or records it.
    static func expect(_ text: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let file = directory.appendingPathComponent(name)
        let text = text.hasSuffix("\n") ? text : text + "\n"
        if isRecording {
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try? Data(text.utf8).write(to: file)
            return
        }
        guard let data = FileManager.default.contents(atPath: file.path) else {
            Issue.record("no snapshot \(name): run with WIDGET_VIEWS_RECORD=1 to record it", sourceLocation: sourceLocation)
            return
        }
        let recorded = String(decoding: data, as: UTF8.self)
        if recorded != text {
            Issue.record("""
                snapshot \(name) differs (WIDGET_VIEWS_RECORD=1 re-records it)
                --- recorded
                \(recorded)
                --- rendered
                \(text)
                """, sourceLocation: sourceLocation)
        }
    }
}
