import Foundation

/// The last good timeline of a widget, and which of its entries is current.
public struct TimelineRecord: Sendable, Hashable {
    /// The widget this timeline belongs to; the widget must exist in the store.
    public var widgetID: String
    /// The timeline as JSON text, stored verbatim.
    public var timeline: String
    /// When the provider delivered it.
    public var receivedAt: Date
    /// The index of the current entry, or nil before the first entry's date.
    public var currentEntryIndex: Int?
    /// The timeline's outline in the compact encoding (`TimelineOutline.compactEncoded()`), what the daemon reads
    /// at start; nil for a row written before the store kept outlines.
    public var outline: Data?

    public init(widgetID: String, timeline: String, receivedAt: Date, currentEntryIndex: Int?, outline: Data? = nil) {
        self.widgetID = widgetID
        self.timeline = timeline
        self.receivedAt = receivedAt
        self.currentEntryIndex = currentEntryIndex
        self.outline = outline
    }
}
