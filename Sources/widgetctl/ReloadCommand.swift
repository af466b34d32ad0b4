import ArgumentParser
import WidgetControl
import WidgetProtocol

struct ReloadCommand: CheckedCommand {
    static let configuration = CommandConfiguration(
        commandName: "reload",
        abstract: "Ask for new timelines, as reloadTimelines(ofKind:) or reloadAllTimelines() do.",
        discussion: """
            Prints one decision per widget, e.g. "w3: deferred until 10:42:07 (minimum interval)"; with --json, \
            {"decisions":[{"widget","decision":"ran|coalesced|deferred","at","because"}],"kind"}; a kind without \
            widgets prints "no widgets of kind K" (and an empty list). --foreground skips the \
            budget and is allowed only to root, the daemon's user and the kind's owners.
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @Option(name: .long, help: ArgumentHelp("Reload every widget of this kind.", valueName: "kind"),
            completion: DaemonCompletion.kinds) var kind: String?
    @Flag(name: .long, help: "Reload every widget.") var all = false
    @Argument(help: ArgumentHelp("Widget ids to reload.", valueName: "id"),
              completion: DaemonCompletion.widgets) var ids: [String] = []
    @Flag(name: .long, help: "Run now without spending budget (owners only).") var foreground = false
    @Flag(help: "Print JSON.") var json = false

    func checkArguments() throws {
        let targets = (kind == nil ? 0 : 1) + (all ? 1 : 0) + (ids.isEmpty ? 0 : 1)
        guard targets == 1 else {
            throw ValidationError("give exactly one of --kind <kind>, --all or widget ids")
        }
    }

    var request: ReloadMethod.Parameters {
        ReloadMethod.Parameters(
            kind: kind, all: all ? true : nil, widgets: ids.isEmpty ? nil : ids, foreground: foreground ? true : nil)
    }

    func run() throws {
        try connection.run { client throws(ControlClientError) in
            let reply = try client.call(ReloadMethod.self, request)
            Console.print(json ? [JSONOutput.document(reply)]
                : Console.renderer().decisions(reply.decisions, kind: kind))
        }
    }
}
