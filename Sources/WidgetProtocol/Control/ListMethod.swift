import Foundation

/// `List`: every widget, as `getCurrentConfigurations()` returns them plus the scheduler's view.
public enum ListMethod: VarlinkMethod {
    public static let method = ControlMethod.list
    public typealias Parameters = NoParameters

    public struct Reply: Sendable, Hashable, Codable, JSONObjectEncodable {
        public var widgets: [WidgetSummary]

        public init(widgets: [WidgetSummary]) {
            self.widgets = widgets
        }

        public var jsonCapacityEstimate: Int { 16 + widgets.count * 300 }

        /// `{"widgets":[…]}`, byte for byte what `VarlinkCoding` writes (pinned by a test): `List` of 100 000
        /// widgets took 2.7 s through `JSONEncoder`.
        public func encodeJSONObject(into output: inout JSONBytesWriter) {
            output.raw("{\"widgets\":[")
            for (index, widget) in widgets.enumerated() {
                if index > 0 { output.raw(",") }
                ListMethod.encode(widget, into: &output)
            }
            output.raw("]}")
        }
    }

    /// One widget's object of the reply, byte for byte what `VarlinkCoding` writes for it: the daemon writes its
    /// reply one widget at a time with this, never holding 100 000 summaries at once.
    public static func encode(_ widget: WidgetSummary, into output: inout JSONBytesWriter) {
        output.raw("{\"configuration\":")
        output.object(widget.configuration)
        output.raw(",\"currentEntry\":")
        if let entry = widget.currentEntry {
            output.raw("{\"content\":")
            output.value(entry.content)
            output.raw(",\"date\":")
            output.date(entry.date)
            if let images = entry.images {
                output.raw(",\"images\":")
                output.value(EntryImage.jsonValue(images))
            }
            output.raw("}")
        } else {
            output.raw("null")
        }
        output.raw(",\"family\":")
        output.string(widget.family)
        output.raw(",\"id\":")
        output.string(widget.id)
        output.raw(",\"kind\":")
        output.string(widget.kind)
        output.raw(",\"lastOutcome\":")
        output.string(widget.lastOutcome)
        output.raw(",\"lastReason\":")
        output.string(widget.lastReason)
        output.raw(",\"lastReload\":")
        output.date(widget.lastReload)
        output.raw(",\"nextReason\":")
        output.string(widget.nextReason)
        output.raw(",\"nextReload\":")
        output.date(widget.nextReload)
        output.raw(",\"state\":")
        output.string(widget.state)
        output.raw(",\"tokens\":")
        output.number(widget.tokens)
        output.raw("}")
    }
}
