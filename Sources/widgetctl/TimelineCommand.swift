import ArgumentParser
import WidgetControl
import WidgetProtocol

struct TimelineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timeline",
        abstract: "Show every entry of a widget's timeline (current one marked), its policy and the next reload."
    )

    @OptionGroup var connection: ConnectionOptions
    @Argument(help: ArgumentHelp("The widget's id.", valueName: "id"),
              completion: DaemonCompletion.widgets) var id: String
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        try connection.run { client throws(ControlClientError) in
            let reply = try client.call(TimelineMethod.self, .init(id: id))
            Console.print(json ? [JSONOutput.document(reply)] : Console.renderer().timeline(reply))
        }
    }
}
