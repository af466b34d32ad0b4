import ArgumentParser
import WidgetControl
import WidgetProtocol

struct DataListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List a group's keys, values and write times (--json: an array)."
    )

    @OptionGroup var connection: ConnectionOptions
    @Argument(help: ArgumentHelp("The group.", valueName: "group")) var group: String
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        try connection.run { client throws(ControlClientError) in
            let reply = try client.call(DataListMethod.self, .init(group: group))
            Console.print(json ? [JSONOutput.document(reply.items)] : Console.renderer().dataItems(reply.items))
        }
    }
}
