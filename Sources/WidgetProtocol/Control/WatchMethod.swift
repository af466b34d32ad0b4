/// `Watch`: a streaming (`more`) call. Each reply's parameters are one `WatchEvent`, with `continues: true`; the
/// daemon ends the stream with a last reply of `{}` when it stops.
public enum WatchMethod: VarlinkMethod {
    public static let method = ControlMethod.watch

    public struct Parameters: Sendable, Hashable, Codable {
        /// Only this widget's events.
        public var id: String?
        /// Only this kind's events.
        public var kind: String?

        public init(id: String? = nil, kind: String? = nil) {
            self.id = id
            self.kind = kind
        }

        /// Whether an event passes the filter.
        public func matches(widget: String, kind: String) -> Bool {
            (id == nil || id == widget) && (self.kind == nil || self.kind == kind)
        }
    }

    public typealias Reply = WatchEvent
}
