import Foundation

/// Every change of one event-loop turn, applied by `StateStore.apply(_:)` in one transaction.
///
/// Repeated changes to the same row coalesce: the last upsert of a widget, schedule or timeline wins, and deleting a
/// widget drops the changes queued for it earlier in the batch. The store applies deletions first, then upserts in
/// dependency order (widgets, schedules, timelines, current entries), then history, group data and meta, so a widget
/// deleted and added again in the same turn comes back fresh.
public struct StateBatch: Sendable {
    /// The identity of one group data value.
    public struct GroupDataKey: Hashable, Sendable {
        /// The group name.
        public var group: String
        /// The key within the group.
        public var key: String
    }

    /// Widgets to delete (with their schedule, timeline and history) before any upsert.
    public private(set) var deletedWidgetIDs: Set<String> = []
    /// Widgets to insert or replace, by id.
    public private(set) var widgets: [String: WidgetRecord] = [:]
    /// Scheduler states to insert or replace, by widget id.
    public private(set) var schedules: [String: WidgetScheduleRecord] = [:]
    /// Timelines to insert or replace, by widget id.
    public private(set) var timelines: [String: TimelineRecord] = [:]
    /// New current-entry indexes of stored timelines that this batch does not replace, by widget id.
    public private(set) var currentEntryIndexes: [String: Int?] = [:]
    /// History lines to append, in order.
    public private(set) var history: [HistoryRecord] = []
    /// Group data to write, or to delete where the value is nil.
    public private(set) var groupData: [GroupDataKey: GroupDataRecord?] = [:]
    /// Meta values to write, or to delete where the value is nil.
    public private(set) var meta: [String: String?] = [:]
    /// The hashes of the images each widget's stored entries refer to, replacing its earlier ones, by widget id.
    public private(set) var imageReferences: [String: Set<String>] = [:]

    public init() {}

    /// Empties the batch, keeping the history's storage for the next one (up to `keptHistoryCapacity` lines): a busy
    /// daemon fills one batch after another with about as many history lines, which would otherwise grow from
    /// nothing every time. The tables start afresh, so a burst (100 000 widgets added) leaves no large table behind.
    public mutating func removeAll() {
        var emptied = StateBatch()
        if history.capacity <= Self.keptHistoryCapacity {
            history.removeAll(keepingCapacity: true)
            emptied.history = history
        }
        self = emptied
    }

    /// The most history lines whose storage `removeAll()` keeps.
    static let keptHistoryCapacity = 4096

    /// Whether the batch holds no change at all; applying an empty batch costs nothing.
    public var isEmpty: Bool {
        deletedWidgetIDs.isEmpty && widgets.isEmpty && schedules.isEmpty && timelines.isEmpty
            && currentEntryIndexes.isEmpty && history.isEmpty && groupData.isEmpty && meta.isEmpty
            && imageReferences.isEmpty
    }

    /// Inserts the widget, or replaces its kind, family, configuration and added date.
    public mutating func upsertWidget(_ widget: WidgetRecord) {
        widgets[widget.id] = widget
    }

    /// Deletes the widget with its schedule, timeline and history; drops this batch's earlier changes to them.
    public mutating func deleteWidget(id: String) {
        deletedWidgetIDs.insert(id)
        widgets[id] = nil
        schedules[id] = nil
        timelines[id] = nil
        currentEntryIndexes[id] = nil
        imageReferences[id] = nil
        history.removeAll { $0.widgetID == id }
    }

    /// Replaces the hashes of the images the widget's stored entries refer to. The widget must exist in the store or
    /// in this batch; deleting it deletes them.
    public mutating func setImageReferences(_ hashes: Set<String>, widgetID: String) {
        imageReferences[widgetID] = hashes
    }

    /// Inserts or replaces the widget's scheduler state. The widget must exist in the store or in this batch.
    public mutating func upsertSchedule(_ schedule: WidgetScheduleRecord) {
        schedules[schedule.widgetID] = schedule
    }

    /// Inserts or replaces the widget's last good timeline. The widget must exist in the store or in this batch.
    public mutating func upsertTimeline(_ timeline: TimelineRecord) {
        timelines[timeline.widgetID] = timeline
        currentEntryIndexes[timeline.widgetID] = nil
    }

    /// Moves the current entry of the widget's stored timeline, without rewriting the timeline text.
    ///
    /// If the widget has no stored timeline, this changes nothing.
    public mutating func setCurrentEntryIndex(_ index: Int?, widgetID: String) {
        if timelines[widgetID] != nil {
            timelines[widgetID]?.currentEntryIndex = index
        } else {
            currentEntryIndexes[widgetID] = .some(index)
        }
    }

    /// Appends a history line; the store keeps each widget's history bounded.
    public mutating func appendHistory(_ record: HistoryRecord) {
        history.append(record)
    }

    /// Writes a group data value.
    public mutating func setGroupValue(_ record: GroupDataRecord) {
        groupData[GroupDataKey(group: record.group, key: record.key)] = .some(record)
    }

    /// Deletes a group data value; deleting a missing value changes nothing.
    public mutating func deleteGroupValue(group: String, key: String) {
        groupData[GroupDataKey(group: group, key: key)] = .some(nil)
    }

    /// Writes a meta value.
    public mutating func setMeta(_ key: String, _ value: String) {
        meta[key] = .some(value)
    }

    /// Deletes a meta value; deleting a missing value changes nothing.
    public mutating func deleteMeta(_ key: String) {
        meta[key] = .some(nil)
    }
}
