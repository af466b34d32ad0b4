import Foundation
import WidgetProtocol
import WidgetViews

/// One widget as a host shows it: its kind's views, its current entry, and how it is drawn at a given moment, in a
/// terminal box or as a status bar's line. Pure: the host feeds it the daemon's replies and the time.
public struct WidgetDisplay {
    public let widget: String
    public let kind: String
    /// The family drawn in the terminal: `--family`, else the widget's own.
    public let family: WidgetFamily
    /// The kind's views, nil when it has none (every family then draws the fallback view).
    public let document: ViewDocument?
    /// The current entry's date and content; nil before the widget's first timeline.
    public private(set) var entryDate: Date?
    public private(set) var content: JSONValue?
    /// The images the current entry's content names, drawn in a terminal as their name and size.
    public private(set) var images: [String: EntryImage] = [:]
    /// Draw the placeholder form.
    public var placeholder: Bool
    public var timeZone: TimeZone

    /// A reason the widget cannot be shown as asked.
    public struct Problem: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// The display of the widget that `timeline` describes, with its kind's `views` (nil when it has none).
    public init(
        timeline: TimelineMethod.Reply, views: ViewsMethod.KindViews?, family requested: String?,
        placeholder: Bool = false, timeZone: TimeZone = .current
    ) throws(Problem) {
        widget = timeline.widget
        kind = timeline.kind
        self.placeholder = placeholder
        self.timeZone = timeZone
        if let views {
            do {
                document = try ViewDocument(json: views.views)
            } catch {
                throw Problem(description: "the views of kind \(kind) cannot be read: \(error)")
            }
        } else {
            document = nil
        }
        let name = requested ?? timeline.family
        guard let family = WidgetFamily(rawValue: name) else {
            let names = WidgetFamily.allCases.map(\.rawValue).joined(separator: ", ")
            throw Problem(description: "\(name) is not a family (families: \(names))")
        }
        if requested != nil, let document, document.view(for: family) == nil {
            let available = document.sortedFamilies.map(\.rawValue).joined(separator: ", ")
            throw Problem(description: "kind \(kind) has no view for \(name) (it has: \(available))")
        }
        self.family = family
        if let current = timeline.entries.first(where: \.current) {
            entryDate = current.date
            content = current.content
            images = current.images ?? [:]
        }
    }

    /// The widget's current entry changed.
    public mutating func entryChanged(date: Date, content: JSONValue, images: [String: EntryImage]? = nil) {
        entryDate = date
        self.content = content
        self.images = images ?? [:]
    }

    /// Whether the kind's views have a view for `family` (else the fallback view draws it).
    public func hasView(for family: WidgetFamily) -> Bool {
        document?.view(for: family) != nil
    }

    /// `family` drawn at `now`.
    public func resolve(_ family: WidgetFamily, now: Date) -> ResolvedWidget {
        let view = document?.view(for: family) ?? FallbackView.view(for: content)
        let context = RenderContext(now: now, timeZone: timeZone, placeholder: placeholder, entryDate: entryDate,
                                    images: images)
        return Resolver.resolve(view, family: family, content: content, context: context)
    }

    /// The terminal box of the shown family, titled with the widget and its kind.
    public func box(now: Date, color: Bool) -> (lines: [String], widget: ResolvedWidget) {
        let resolved = resolve(family, now: now)
        let title = "\(widget) \u{00B7} \(kind)"
        return (TextRenderer.render(resolved, options: .init(color: color, title: title)), resolved)
    }

    /// The family a status bar line is drawn from: `--family` when given, else the kind's `accessoryInline` view when
    /// it has one, else the widget's family.
    public func lineFamily(requested: Bool) -> WidgetFamily {
        if !requested, hasView(for: .accessoryInline) { return .accessoryInline }
        return family
    }

    /// The status bar line in `format` at `now`.
    public func statusLine(
        _ format: StatusLine.Format, now: Date, familyRequested: Bool
    ) -> (line: String, widget: ResolvedWidget) {
        let line = resolve(lineFamily(requested: familyRequested), now: now)
        let tooltipFamily = [family, .systemMedium, .systemSmall, .systemLarge]
            .first { !$0.isAccessory && hasView(for: $0) }
        // The tooltip is drawn afresh with each line, but does not set the pace: a bar is woken only when its own
        // text changes.
        let tooltip = format == .waybar ? tooltipFamily.map { resolve($0, now: now) } : nil
        return (StatusLine.line(format, line: line, tooltip: tooltip, kind: kind), line)
    }
}
