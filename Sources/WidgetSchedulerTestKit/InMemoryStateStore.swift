import Foundation
import WidgetSchedulerRuntime

/// A `StateStoring` in memory: what a batch writes can be read back, and a restart can be simulated by handing the
/// same store to a new service.
public final class InMemoryStateStore: StateStoring {
    public private(set) var widgets: [String: WidgetRecord] = [:]
    public private(set) var schedules: [String: WidgetScheduleRecord] = [:]
    public private(set) var timelines: [String: TimelineRecord] = [:]
    public private(set) var history: [HistoryRecord] = []
    public private(set) var groups: [String: [String: GroupDataRecord]] = [:]
    public private(set) var meta: [String: String] = [:]
    public private(set) var imageReferenceRows: [String: Set<String>] = [:]
    /// Batches applied, for tests that check writes are batched per turn.
    public private(set) var appliedBatches = 0
    /// Calls of `recordRunStarts(_:)`.
    public private(set) var recordedRunStarts = 0
    /// Calls of `timelines(widgetIDs:)`, for tests that check stored timelines are read together.
    public private(set) var timelineReads = 0
    /// While set, `apply(_:)` and `recordRunStarts(_:)` throw it and change nothing, as a full disk makes the real
    /// store do.
    public var writeFailure: (any Error)?

    public init() {}

    public func forEachStoredWidget(timelines loading: TimelineLoading, _ body: (StoredWidget) throws -> Void) throws {
        for id in widgets.keys.sorted() {
            guard let widget = widgets[id] else { continue }
            let timeline = timelines[id]
            switch loading {
            case .none:
                try body(StoredWidget(widget: widget, schedule: schedules[id], timeline: nil))
            case .outlines:
                try body(StoredWidget(widget: widget, schedule: schedules[id],
                                      timeline: timeline?.outline == nil ? timeline : nil, outline: timeline?.outline))
            case .full:
                try body(StoredWidget(widget: widget, schedule: schedules[id], timeline: timeline,
                                      outline: timeline?.outline))
            }
        }
    }

    public func widgetCount() throws -> Int {
        widgets.count
    }

    public func allMeta() throws -> [String: String] {
        meta
    }

    public func timelines(widgetIDs: [String]) throws -> [String: TimelineRecord] {
        timelineReads += 1
        var records: [String: TimelineRecord] = [:]
        for id in widgetIDs { records[id] = timelines[id] }
        return records
    }

    public func apply(_ batch: StateBatch) throws {
        if let writeFailure { throw writeFailure }
        appliedBatches += 1
        for id in batch.deletedWidgetIDs {
            widgets[id] = nil
            schedules[id] = nil
            timelines[id] = nil
            imageReferenceRows[id] = nil
            history.removeAll { $0.widgetID == id }
        }
        for widget in batch.widgets.values { widgets[widget.id] = widget }
        for schedule in batch.schedules.values where widgets[schedule.widgetID] != nil {
            schedules[schedule.widgetID] = schedule
        }
        for timeline in batch.timelines.values where widgets[timeline.widgetID] != nil {
            timelines[timeline.widgetID] = timeline
        }
        for (id, hashes) in batch.imageReferences where widgets[id] != nil {
            imageReferenceRows[id] = hashes.isEmpty ? nil : hashes
        }
        history += batch.history.filter { widgets[$0.widgetID] != nil }
        for (key, value) in batch.meta { meta[key] = value }
        for (key, record) in batch.groupData { groups[key.group, default: [:]][key.key] = record }
    }

    /// Writes the schedules at once, as the real store's journal makes them survive a kill; widgets not stored yet
    /// are skipped, as the real store's recovery skips them.
    public func recordRunStarts(_ schedules: [WidgetScheduleRecord]) throws {
        if let writeFailure { throw writeFailure }
        recordedRunStarts += 1
        for schedule in schedules where widgets[schedule.widgetID] != nil {
            self.schedules[schedule.widgetID] = schedule
        }
    }

    public func history(widgetID: String, since: Date) throws -> [HistoryRecord] {
        history.filter { $0.widgetID == widgetID && $0.at >= since }
    }

    public func groupData(group: String) throws -> [GroupDataRecord] {
        (groups[group] ?? [:]).values.sorted { $0.key < $1.key }
    }

    public func groupValue(group: String, key: String) throws -> GroupDataRecord? {
        groups[group]?[key]
    }

    public func imageReferences() throws -> [String: Set<String>] {
        imageReferenceRows
    }
}
