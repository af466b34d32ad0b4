import ArgumentParser
import WidgetControl
import WidgetProtocol
import WidgetViews

struct AddCommand: CheckedCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a widget of a kind; unset parameters take the provider's, then the manifest's defaults.",
        discussion: "Prints the new widget's id, or {\"id\": …} with --json."
    )

    @OptionGroup var connection: ConnectionOptions
    @Option(name: .long, help: ArgumentHelp("The widget kind.", valueName: "kind"),
            completion: DaemonCompletion.kinds) var kind: String
    @Option(name: .long, help: ArgumentHelp("The widget family (size).", valueName: "family"),
            completion: .list(WidgetFamily.allCases.map(\.rawValue))) var family: String?
    @Option(name: .customLong("param"), help: ArgumentHelp(
        "A configuration parameter; repeatable. VALUE is JSON when it parses as a JSON number, boolean, array, "
            + "object or quoted string, else a string.", valueName: "name=value"))
    var parameters: [String] = []
    @Flag(help: "Print JSON.") var json = false

    func checkArguments() throws {
        guard !kind.isEmpty else { throw ValidationError("--kind must not be empty") }
        try ParameterArguments.check(parameters)
    }

    func run() throws {
        try connection.run { client throws(ControlClientError) in
            let typed = try ParameterArguments.values(parameters) { () throws(ControlClientError) in
                try KindParameterTypes.of(kind: kind, client)
            }
            let reply = try client.call(AddMethod.self, .init(kind: kind, family: family, parameters: typed))
            Console.print(json ? JSONOutput.document(reply) : reply.id)
        }
    }
}
