import ArgumentParser
import WidgetControl
import WidgetProtocol

struct DataGetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Print a value (just the value, for scripts; --json adds its key and write time)."
    )

    @OptionGroup var connection: ConnectionOptions
    @Argument(help: ArgumentHelp("The group.", valueName: "group")) var group: String
    @Argument(help: ArgumentHelp("The key.", valueName: "key")) var key: String
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        try connection.run { client throws(ControlClientError) in
            let item = try client.call(DataGetMethod.self, .init(group: group, key: key))
            Console.print(json ? JSONOutput.document(item) : item.value)
        }
    }
}
