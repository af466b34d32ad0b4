import ArgumentParser
import WidgetControl
import WidgetProtocol

struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Stream entry changes, run results and decisions as they happen, until the daemon stops.",
        discussion: """
            With --json, one line per event: {"event":"entryChanged","widget","kind","date","content"}, sent at the \
            entry's date; runFinished and decision events carry their own fields.
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @Argument(help: ArgumentHelp("Only this widget.", valueName: "id")) var id: String?
    @Option(name: .long, help: ArgumentHelp("Only widgets of this kind.", valueName: "kind")) var kind: String?
    @Flag(help: "Print JSON lines.") var json = false

    func validate() throws {
        if id != nil && kind != nil { throw ValidationError("give a widget id or --kind, not both") }
    }

    func run() throws {
        let renderer = Console.renderer()
        try connection.run { client throws(ControlClientError) in
            let last = try client.stream(WatchMethod.self, .init(id: id, kind: kind)) { event in
                Console.print(json ? JSONOutput.line(event) : renderer.watchEvent(event))
                return true
            }
            if let last {
                Console.print(json ? JSONOutput.line(last) : renderer.watchEvent(last))
            }
        }
    }
}
