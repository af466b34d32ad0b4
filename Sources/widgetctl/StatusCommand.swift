import ArgumentParser
import WidgetControl
import WidgetProtocol

struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the daemon's state: widgets, runs, the next reload and the budget settings."
    )

    @OptionGroup var connection: ConnectionOptions
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        try connection.run { client throws(ControlClientError) in
            let reply = try client.call(StatusMethod.self, NoParameters())
            if json {
                Console.print(JSONOutput.document(reply))
            } else {
                Console.print(Console.renderer().status(reply))
            }
        }
    }
}
