import ArgumentParser
import WidgetControl
import WidgetProtocol

struct StackCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stack",
        abstract: "Order widgets by current relevance, as a smart stack does, with each one's score and why.",
        discussion: "--json prints an array, most relevant first."
    )

    @OptionGroup var connection: ConnectionOptions
    @Argument(help: ArgumentHelp("Only these widgets (default: all).", valueName: "id"),
              completion: DaemonCompletion.widgets) var ids: [String] = []
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        try connection.run { client throws(ControlClientError) in
            let reply = try client.call(StackMethod.self, .init(ids: ids.isEmpty ? nil : ids))
            Console.print(json ? [JSONOutput.document(reply.stack)] : Console.renderer().stack(reply.stack))
        }
    }
}
