/// Everything the daemon needs at start: every widget with its schedule and timeline, and the meta values.
public struct StoredState: Sendable {
    /// Every widget, in the order they were first stored (within one batch: by date added, then id).
    public var widgets: [StoredWidget]
    /// Meta values by key (boot id, last wall/monotonic stamp, ...).
    public var meta: [String: String]

    public init(widgets: [StoredWidget], meta: [String: String]) {
        self.widgets = widgets
        self.meta = meta
    }
}
