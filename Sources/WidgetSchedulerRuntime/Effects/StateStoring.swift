import Foundation

/// The daemon's persistent state. The real one is `StateStore` (SQLite through GRDB); the test kit has an in-memory
/// fake.
public protocol StateStoring: AnyObject {
    /// Every widget with its schedule (and its timeline when `includingTimelines`), and the meta values.
    func loadAll(includingTimelines: Bool) throws -> StoredState
    /// Applies one event-loop turn's changes atomically.
    func apply(_ batch: StateBatch) throws
    func history(widgetID: String, since: Date) throws -> [HistoryRecord]
    func groupData(group: String) throws -> [GroupDataRecord]
    func groupValue(group: String, key: String) throws -> GroupDataRecord?
}

extension StateStore: StateStoring {}
