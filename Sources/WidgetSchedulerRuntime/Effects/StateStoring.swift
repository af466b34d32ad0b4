import Foundation

/// The daemon's persistent state. The real one is `StateStore` (SQLite through GRDB); the test kit has an in-memory
/// fake.
public protocol StateStoring: AnyObject {
    /// Calls `body` with every widget and its schedule (and as much of its timeline as `timelines` says), in the
    /// order they were added, one at a time.
    func forEachStoredWidget(timelines: TimelineLoading, _ body: (StoredWidget) throws -> Void) throws
    /// How many widgets the store holds.
    func widgetCount() throws -> Int
    /// Every meta value by key.
    func allMeta() throws -> [String: String]
    /// The widgets' last good timelines, with their entries' contents, by widget id; one without is left out.
    func timelines(widgetIDs: [String]) throws -> [String: TimelineRecord]
    /// Applies one event-loop turn's changes atomically.
    func apply(_ batch: StateBatch) throws
    /// Makes the schedules of runs about to start survive the process before the runs start; the next `apply(_:)`
    /// must hold them or newer states of the same widgets.
    func recordRunStarts(_ schedules: [WidgetScheduleRecord]) throws
    func history(widgetID: String, since: Date) throws -> [HistoryRecord]
    func groupData(group: String) throws -> [GroupDataRecord]
    func groupValue(group: String, key: String) throws -> GroupDataRecord?
    /// The hashes of the images each widget's stored entries refer to, by widget id (`StateBatch.imageReferences`).
    func imageReferences() throws -> [String: Set<String>]
}

extension StateStore: StateStoring {}
