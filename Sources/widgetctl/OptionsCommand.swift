import ArgumentParser
import WidgetControl
import WidgetProtocol

struct OptionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "options",
        abstract: "List the values a kind's parameter can take, from the provider or the manifest."
    )

    @OptionGroup var connection: ConnectionOptions
    @Option(name: .long, help: ArgumentHelp("The widget kind.", valueName: "kind"),
            completion: DaemonCompletion.kinds) var kind: String
    @Option(name: .customLong("param"), help: ArgumentHelp("The parameter's name.", valueName: "name"))
    var parameter: String
    @Option(name: .long, help: ArgumentHelp("Text to filter the options by.", valueName: "text")) var search: String?
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        try connection.run { client throws(ControlClientError) in
            let reply = try client.call(
                OptionsMethod.self, .init(kind: kind, parameter: parameter, search: search))
            Console.print(json ? [JSONOutput.document(reply)] : Console.renderer().options(reply))
        }
    }
}
