import ArgumentParser
import Foundation
import Glibc
import WidgetControl
import WidgetProtocol
import WidgetViews

struct ShowCommand: CheckedCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Draw a widget's current entry with its kind's view, in the terminal.",
        discussion: """
            The widget is drawn in a box at its family's size (or --family's), in color on a terminal unless \
            NO_COLOR is set (--color always or never decides instead). With --watch it is redrawn at each entry \
            change and each time a relative or timer text changes, until the daemon stops. Fields the view cannot \
            show are reported on standard error, once, and again only when what is missing changes.
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @Argument(help: ArgumentHelp("The widget's id.", valueName: "id"),
              completion: DaemonCompletion.widgets) var id: String
    @Option(help: ArgumentHelp("Draw this family's view instead of the widget's own.", valueName: "family"),
            completion: .list(WidgetFamily.allCases.map(\.rawValue)))
    var family: String?
    @Flag(help: "Draw the placeholder form: texts as bars, as before a widget's first timeline.")
    var placeholder = false
    @Flag(help: "Redraw at each entry change and as relative and timer texts change.") var watch = false
    @Option(help: ArgumentHelp("auto (on a terminal without NO_COLOR), always or never.", valueName: "when"))
    var color: ColorChoice = .auto

    /// When to write ANSI color.
    enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
        case auto, always, never
    }

    func checkArguments() throws {
        if let family, WidgetFamily(rawValue: family) == nil {
            let families = WidgetFamily.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("\(family) is not a family (\(families))")
        }
    }

    func run() throws {
        let color: Bool
        switch self.color {
        case .auto: color = WidgetSession.colorTerminal
        case .always: color = true
        case .never: color = false
        }
        let terminal = isatty(STDOUT_FILENO) == 1
        try connection.run { client throws(ControlClientError) in
            var session = try WidgetSession(client: client, id: id, family: family, placeholder: placeholder)
            let draw = { (display: WidgetDisplay, now: Date) in
                let box = display.box(now: now, color: color)
                return (output: box.lines.joined(separator: "\n"), problems: box.widget.problems,
                        next: box.widget.nextChange)
            }
            guard watch else {
                let frame = draw(session.display, Date())
                session.report(frame.problems)
                Console.print(frame.output)
                return
            }
            var previousLines = 0
            try session.run(draw) { output in
                // On a terminal the box is drawn over the last one; in a pipe each frame follows the last.
                if terminal && previousLines > 0 {
                    Console.write("\u{1B}[\(previousLines)A\u{1B}[J" + output + "\n")
                } else {
                    Console.print(previousLines > 0 && !terminal ? "\n" + output : output)
                }
                previousLines = output.split(separator: "\n", omittingEmptySubsequences: false).count
            }
        }
    }
}
