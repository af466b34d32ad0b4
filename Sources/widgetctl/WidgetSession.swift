import Foundation
import Glibc
import WidgetControl
import WidgetProtocol
import WidgetViews

/// A widget shown live: its display, fed by the daemon's `Watch` stream, redrawn when its entry changes and when a
/// visible date text changes, and otherwise asleep in `poll` with no timeout at all (a widget without `relative`,
/// `timer` or clock texts wakes the client only when the daemon sends something).
struct WidgetSession {
    var display: WidgetDisplay
    private let client: ControlClient
    /// The problems last reported: a problem is reported once, not at each frame or entry that has it again.
    private var reportedProblems: [RenderProblem] = []

    /// Reads the widget's timeline and its kind's views, and shows `family` (nil: the widget's own).
    init(client: ControlClient, id: String, family: String?, placeholder: Bool) throws(ControlClientError) {
        self.client = client
        let timeline = try client.call(TimelineMethod.self, .init(id: id))
        let views = try client.call(ViewsMethod.self, .init(kind: timeline.kind)).views.first
        do {
            display = try WidgetDisplay(timeline: timeline, views: views, family: family, placeholder: placeholder)
        } catch {
            throw .remote(.invalidParameter("family", reason: error.description))
        }
        if views == nil {
            Console.error("kind \(timeline.kind) has no views: showing its content's fields")
        }
    }

    /// Reports `problems` on standard error unless they are those last reported.
    mutating func report(_ problems: [RenderProblem]) {
        guard problems != reportedProblems else { return }
        reportedProblems = problems
        for problem in problems { Console.error("\(display.widget): \(problem)") }
    }

    /// Draws with `draw` now, and again at each entry change and each moment `draw` says its output next changes,
    /// until the daemon ends the stream. `draw` returns the output and when it next changes.
    mutating func run(_ draw: (WidgetDisplay, Date) -> (output: String, problems: [RenderProblem], next: Date?),
                      emit: (String) -> Void) throws(ControlClientError) {
        var frame = draw(display, Date())
        report(frame.problems)
        emit(frame.output)
        var last = frame.output
        try client.openStream(WatchMethod.self, .init(id: display.widget))
        while true {
            let timeout = frame.next.map { max($0.timeIntervalSinceNow, 0.001) }
            switch try client.nextReply(of: WatchMethod.self, timeout: timeout) {
            case .end:
                return
            case .reply(let event):
                guard event.event == .entryChanged, let content = event.content else { continue }
                display.entryChanged(date: event.date, content: content, images: event.images)
                frame = draw(display, Date())
                report(frame.problems)
            case .timedOut:
                frame = draw(display, Date())
            }
            if frame.output != last {
                emit(frame.output)
                last = frame.output
            }
        }
    }

    /// Whether standard output is a terminal that takes color (`NO_COLOR` unset, `TERM` not dumb).
    static var colorTerminal: Bool {
        Palette.detect(isTerminal: isatty(STDOUT_FILENO) == 1, environment: ProcessInfo.processInfo.environment)
            .enabled
    }
}
