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
        try ParameterArguments.check(parameters)
    }

    func run() throws {
        try connection.run { client throws(ControlClientError) in
            let typed = try ParameterArguments.values(parameters) { () throws(ControlClientError) in
                try KindParameterTypes.of(widget: id, client)
            }
            let reply = try client.call(ConfigureMethod.self, .init(id: id, parameters: typed))
            Console.print(json ? JSONOutput.document(reply) : Console.renderer().decision(reply.decision))
        }
    }
}
