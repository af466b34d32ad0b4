import Foundation

/// The scheduler core's per-widget state (budget tokens and refill stamp, last run start, failures, backoff,
/// quarantine, pending run) as an opaque blob, plus the few plain columns the store indexes.
public struct WidgetScheduleRecord: Sendable, Hashable {
    /// The widget this state belongs to; the widget must exist in the store.
    public var widgetID: String
    /// The encoded scheduler state; the store never looks inside.
    public var state: Data
    /// When the widget's next run is due, if one is planned.
    public var nextDue: Date?
    /// Whether the widget is quarantined after repeated failures.
    public var quarantined: Bool

    public init(widgetID: String, state: Data, nextDue: Date?, quarantined: Bool) {
        self.widgetID = widgetID
        self.state = state
        self.nextDue = nextDue
        self.quarantined = quarantined
    }
}
