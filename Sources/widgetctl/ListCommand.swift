import ArgumentParser
import WidgetControl
import WidgetProtocol

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List widgets with their next and last reload, as systemctl list-timers does.",
        discussion: """
            --json prints an array of {"id","kind","family","configuration","state","lastReload","lastReason",\
            "lastOutcome","nextReload","nextReason","tokens","currentEntry":{"date","content"}|null}.
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        try connection.run { client throws(ControlClientError) in
            let reply = try client.call(ListMethod.self, NoParameters())
            if json {
                Console.print(JSONOutput.document(reply.widgets))
            } else {
                Console.print(Console.renderer().list(reply.widgets))
            }
        }
    }
}
