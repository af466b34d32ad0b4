/// One widget as loaded from the store, with its scheduler state and last good timeline when it has them.
public struct StoredWidget: Sendable, Hashable {
    /// The widget.
    public var widget: WidgetRecord
    /// Its scheduler state, or nil if none was ever stored.
    public var schedule: WidgetScheduleRecord?
    /// Its last good timeline, or nil if no run has succeeded yet.
    public var timeline: TimelineRecord?

    public init(widget: WidgetRecord, schedule: WidgetScheduleRecord?, timeline: TimelineRecord?) {
        self.widget = widget
        self.schedule = schedule
        self.timeline = timeline
    }
}
