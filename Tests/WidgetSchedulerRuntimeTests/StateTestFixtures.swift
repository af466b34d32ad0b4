import Foundation

@testable import WidgetSchedulerRuntime

/// A fresh temporary state directory per test, and sample records.
enum StateTestFixtures {
    static func makeDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("state-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static let epoch = Date(timeIntervalSince1970: 1_795_000_000.123_456)

    static func widget(_ id: String, kind: String = "weather") -> WidgetRecord {
        WidgetRecord(
            id: id, kind: kind, family: "systemSmall", configuration: #"{"city":"Paris \#(id)"}"#,
            addedAt: epoch.addingTimeInterval(0.1))
    }

    static func schedule(_ widgetID: String, nextDue: Date? = epoch.addingTimeInterval(300)) -> WidgetScheduleRecord {
        WidgetScheduleRecord(
            widgetID: widgetID, state: Data(#"{"tokens":41.5,"failures":0}"#.utf8), nextDue: nextDue,
            quarantined: false)
    }

    static func timeline(_ widgetID: String, currentEntryIndex: Int? = 0) -> TimelineRecord {
        TimelineRecord(
            widgetID: widgetID, timeline: #"{"entries":[{"date":"2026-11-22T07:00:00Z","content":{"t":21}}]}"#,
            receivedAt: epoch.addingTimeInterval(1.7), currentEntryIndex: currentEntryIndex)
    }

    static func history(
        _ widgetID: String, at offset: TimeInterval = 0, outcome: String = "success"
    ) -> HistoryRecord {
        HistoryRecord(
            widgetID: widgetID, at: epoch.addingTimeInterval(offset), monotonic: 1000 + offset, event: .run,
            reason: "policy", outcome: outcome)
    }
}
