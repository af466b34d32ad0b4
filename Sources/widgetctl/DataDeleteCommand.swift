import ArgumentParser
import WidgetControl
import WidgetProtocol

struct DataDeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a value."
    )

    @OptionGroup var connection: ConnectionOptions
    @Argument(help: ArgumentHelp("The group.", valueName: "group")) var group: String
    @Argument(help: ArgumentHelp("The key.", valueName: "key")) var key: String

    func run() throws {
        try connection.run { client throws(ControlClientError) in
            _ = try client.call(DataDeleteMethod.self, .init(group: group, key: key))
        }
    }
}
