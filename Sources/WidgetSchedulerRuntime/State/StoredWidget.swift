import Foundation

/// One widget as loaded from the store, with its scheduler state and last good timeline when it has them.
public struct StoredWidget: Sendable, Hashable {
    /// The widget.
    public var widget: WidgetRecord
    /// Its scheduler state, or nil if none was ever stored.
    public var schedule: WidgetScheduleRecord?
    /// Its last good timeline, or nil if no run has succeeded yet. Loaded with `TimelineLoading.full`; with
    /// `.outlines`, only for a row stored without an outline.
    public var timeline: TimelineRecord?
    /// Its last good timeline's outline (`TimelineRecord.outline`), loaded with `TimelineLoading.outlines`.
    public var outline: Data?

    public init(widget: WidgetRecord, schedule: WidgetScheduleRecord?, timeline: TimelineRecord?,
                outline: Data? = nil) {
        self.widget = widget
        self.schedule = schedule
        self.timeline = timeline
        self.outline = outline
    }
}
