import Foundation

/// When the daemon should ask for a new timeline, as WidgetKit's `TimelineReloadPolicy`.
public enum TimelineReloadPolicy: Sendable, Hashable {
    /// After the last entry's date.
    case atEnd
    /// Not before the given date (the daemon's budget may delay it further).
    case after(Date)
    /// Only when something asks for a reload, e.g. `widgetctl reload` or a data write with `--reload-kind`.
    case never
}
