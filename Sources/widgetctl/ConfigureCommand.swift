import ArgumentParser
import WidgetControl
import WidgetProtocol

struct ConfigureCommand: CheckedCommand {
    static let configuration = CommandConfiguration(
        commandName: "configure",
        abstract: "Change a widget's parameters; triggers its budget-exempt configuration run.",
        discussion: "Prints the run's decision, or {\"decision\": …} with --json."
    )

    @OptionGroup var connection: ConnectionOptions
    @Argument(help: ArgumentHelp("The widget's id.", valueName: "id"),
              completion: DaemonCompletion.widgets) var id: String
    @Option(name: .customLong("param"), help: ArgumentHelp(
        "A parameter to change; repeatable, at least one.", valueName: "name=value"))
    var parameters: [String] = []
    @Flag(help: "Print JSON.") var json = false

    func checkArguments() throws {
        guard !parameters.isEmpty else { throw ValidationError("give at least one --param NAME=VALUE") }
        do {
            _ = try ParameterAssignment.object(parameters)
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() throws {
        let values = (try? ParameterAssignment.object(parameters)) ?? [:]
        let plainTexts = ParameterAssignment.plainTexts(parameters)
        try connection.run { client throws(ControlClientError) in
            var typed = values
            if !plainTexts.isEmpty {
                typed = ParameterAssignment.typed(values, plainTexts: plainTexts,
                                                  types: try KindParameterTypes.of(widget: id, client))
            }
            let reply = try client.call(ConfigureMethod.self, .init(id: id, parameters: typed))
            Console.print(json ? JSONOutput.document(reply) : Console.renderer().decision(reply.decision))
        }
    }
}
