import ArgumentParser
import WidgetControl
import WidgetProtocol

struct AddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a widget of a kind; unset parameters take the provider's, then the manifest's defaults.",
        discussion: "Prints the new widget's id, or {\"id\": …} with --json."
    )

    @OptionGroup var connection: ConnectionOptions
    @Option(name: .long, help: ArgumentHelp("The widget kind.", valueName: "kind")) var kind: String
    @Option(name: .long, help: ArgumentHelp("The widget family (size).", valueName: "family")) var family: String?
    @Option(name: .customLong("param"), help: ArgumentHelp(
        "A configuration parameter; repeatable. VALUE is JSON when it parses as a JSON number, boolean, array, "
            + "object or quoted string, else a string.", valueName: "name=value"))
    var parameters: [String] = []
    @Flag(help: "Print JSON.") var json = false

    func validate() throws {
        guard !kind.isEmpty else { throw ValidationError("--kind must not be empty") }
        do {
            _ = try ParameterAssignment.object(parameters)
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() throws {
        let values = try? ParameterAssignment.object(parameters)
        let request = AddMethod.Parameters(kind: kind, family: family, parameters: values ?? [:])
        try connection.run { client throws(ControlClientError) in
            let reply = try client.call(AddMethod.self, request)
            Console.print(json ? JSONOutput.document(reply) : reply.id)
        }
    }
}
