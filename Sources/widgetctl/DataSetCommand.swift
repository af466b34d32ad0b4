import ArgumentParser
import WidgetControl
import WidgetProtocol

struct DataSetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Store a value; with --reload-kind, reload that kind afterwards (save, then reloadTimelines)."
    )

    @OptionGroup var connection: ConnectionOptions
    @Argument(help: ArgumentHelp("The group.", valueName: "group")) var group: String
    @Argument(help: ArgumentHelp("The key.", valueName: "key")) var key: String
    @Argument(help: ArgumentHelp("The value.", valueName: "value")) var value: String
    @Option(name: .long, help: ArgumentHelp("A kind to reload after the write.", valueName: "kind"),
            completion: DaemonCompletion.kinds)
    var reloadKind: String?
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        try connection.run { client throws(ControlClientError) in
            let reply = try client.call(
                DataSetMethod.self, .init(group: group, key: key, value: value, reloadKind: reloadKind))
            guard !json else { return Console.print([JSONOutput.document(reply)]) }
            // A plain write says nothing more, as `cp` does; a write with a reload answers for the reload.
            guard let reloadKind else { return }
            Console.print(Console.renderer().decisions(reply.decisions, kind: reloadKind))
        }
    }
}
