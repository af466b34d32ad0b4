import ArgumentParser
import Foundation
import WidgetControl
import WidgetProtocol
import WidgetViews

struct WatchCommand: CheckedCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Stream entry changes, run results and decisions as they happen, until the daemon stops.",
        discussion: """
            With --json, one line per event: {"event":"entryChanged","widget","kind","date","content"}, sent at the \
            entry's date; runFinished and decision events carry their own fields.

            With --format waybar, i3blocks or text, one widget is drawn as one line per change in a status bar's own \
            protocol (docs/hosts.md): Waybar's custom module with "return-type": "json", i3blocks' persistent mode \
            with format=json, or plain text. The line is drawn from the kind's accessoryInline view when it has one, \
            else from the widget's family (or --family's). A timer or relative text is printed again as it changes \
            (each second or minute); otherwise nothing is printed, and the process sleeps, until the entry changes.
            """
    )

    /// What is printed.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case events, json, waybar, i3blocks, text
    }

    @OptionGroup var connection: ConnectionOptions
    @Argument(help: ArgumentHelp("Only this widget.", valueName: "id"),
              completion: DaemonCompletion.widgets) var id: String?
    @Option(name: .long, help: ArgumentHelp("Only widgets of this kind.", valueName: "kind"),
            completion: DaemonCompletion.kinds) var kind: String?
    @Flag(help: "Print JSON lines (the same as --format json).") var json = false
    @Option(help: ArgumentHelp("events (the default), json, waybar, i3blocks or text.", valueName: "format"))
    var format: Format?
    @Option(help: ArgumentHelp("With waybar, i3blocks or text: draw this family's view.", valueName: "family"),
            completion: .list(WidgetFamily.allCases.map(\.rawValue)))
    var family: String?

    private var effectiveFormat: Format { format ?? (json ? .json : .events) }

    private var statusFormat: StatusLine.Format? {
        switch effectiveFormat {
        case .events, .json: return nil
        case .waybar: return .waybar
        case .i3blocks: return .i3blocks
        case .text: return .text
        }
    }

    func checkArguments() throws {
        if id != nil && kind != nil { throw ValidationError("give a widget id or --kind, not both") }
        if json, let format, format != .json { throw ValidationError("--json is --format json: give one of them") }
        if statusFormat != nil && id == nil {
            throw ValidationError("--format \(effectiveFormat.rawValue) draws one widget: give its id")
        }
        if family != nil && statusFormat == nil {
            throw ValidationError("--family applies only to --format waybar, i3blocks or text")
        }
        if let family, WidgetFamily(rawValue: family) == nil {
            let families = WidgetFamily.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("\(family) is not a family (\(families))")
        }
    }

    func run() throws {
        if let statusFormat, let id {
            try connection.run { client throws(ControlClientError) in
                var session = try WidgetSession(client: client, id: id, family: family, placeholder: false)
                try session.run({ display, now in
                    let line = display.statusLine(statusFormat, now: now, familyRequested: family != nil)
                    return (output: line.line, problems: line.widget.problems, next: line.widget.nextChange)
                }, emit: Console.print)
            }
            return
        }
        let renderer = Console.renderer()
        let asJSON = effectiveFormat == .json
        try connection.run { client throws(ControlClientError) in
            let last = try client.stream(WatchMethod.self, .init(id: id, kind: kind)) { event in
                Console.print(asJSON ? JSONOutput.line(event) : renderer.watchEvent(event))
                return true
            }
            if let last {
                Console.print(asJSON ? JSONOutput.line(last) : renderer.watchEvent(last))
            }
        }
    }
}
