import ArgumentParser
import WidgetControl
import WidgetProtocol

struct RemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove a widget with its timeline and history."
    )

    @OptionGroup var connection: ConnectionOptions
    @Argument(help: ArgumentHelp("The widget's id.", valueName: "id"),
              completion: DaemonCompletion.widgets) var id: String

    func run() throws {
        try connection.run { client throws(ControlClientError) in
            _ = try client.call(RemoveMethod.self, .init(id: id))
        }
    }
}
