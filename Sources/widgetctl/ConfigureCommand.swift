import ArgumentParser
import WidgetControl
import WidgetProtocol

struct ConfigureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "configure",
        abstract: "Change a widget's parameters; triggers its budget-exempt configuration run.",
        discussion: "Prints the run's decision, or {\"decision\": …} with --json."
    )

    @OptionGroup var connection: ConnectionOptions
    @Argument(help: ArgumentHelp("The widget's id.", valueName: "id")) var id: String
    @Option(name: .customLong("param"), help: ArgumentHelp(
        "A parameter to change; repeatable, at least one.", valueName: "name=value"))
    var parameters: [String] = []
    @Flag(help: "Print JSON.") var json = false

    func validate() throws {
        guard !parameters.isEmpty else { throw ValidationError("give at least one --param NAME=VALUE") }
        do {
            _ = try ParameterAssignment.object(parameters)
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() throws {
        let values = (try? ParameterAssignment.object(parameters)) ?? [:]
        try connection.run { client throws(ControlClientError) in
            let reply = try client.call(ConfigureMethod.self, .init(id: id, parameters: values))
            Console.print(json ? JSONOutput.document(reply) : Console.renderer().decision(reply.decision))
        }
    }
}
