/// How much of each widget's timeline a load reads.
public enum TimelineLoading: Sendable, Hashable {
    /// No timeline.
    case none
    /// The outline only (`StoredWidget.outline`), plus the full timeline of a row stored without an outline: what
    /// the daemon needs at start, a small fraction of the timelines' text.
    case outlines
    /// The full timeline with its entries' contents (`StoredWidget.timeline`).
    case full
}
