import ArgumentParser
import WidgetControl
import WidgetProtocol

struct BudgetCommand: CheckedCommand {
    static let configuration = CommandConfiguration(
        commandName: "budget",
        abstract: "Show the refresh ledger: tokens, the floor, runs of the last 24 h, failures and quarantine.",
        discussion: "Without an id or --kind, shows every widget. --json prints an array of ledgers."
    )

    @OptionGroup var connection: ConnectionOptions
    @Argument(help: ArgumentHelp("One widget's id.", valueName: "id"),
              completion: DaemonCompletion.widgets) var id: String?
    @Option(name: .long, help: ArgumentHelp("Every widget of this kind.", valueName: "kind"),
            completion: DaemonCompletion.kinds) var kind: String?
    @Flag(help: "Print JSON.") var json = false

    func checkArguments() throws {
        if id != nil && kind != nil { throw ValidationError("give a widget id or --kind, not both") }
    }

    func run() throws {
        try connection.run { client throws(ControlClientError) in
            let reply = try client.call(BudgetMethod.self, .init(id: id, kind: kind))
            Console.print(json ? [JSONOutput.document(reply.ledgers)] : Console.renderer().budget(reply.ledgers))
        }
    }
}
