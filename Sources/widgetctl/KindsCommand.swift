import ArgumentParser
import WidgetControl
import WidgetProtocol

struct KindsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kinds",
        abstract: "List the widget kinds the provider manifests declare.",
        discussion: "--json prints an array of kinds with their families, parameters, group and owners."
    )

    @OptionGroup var connection: ConnectionOptions
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        try connection.run { client throws(ControlClientError) in
            let reply = try client.call(KindsMethod.self, NoParameters())
            if json {
                Console.print(JSONOutput.document(reply.kinds))
            } else {
                Console.print(Console.renderer().kinds(reply.kinds))
            }
        }
    }
}
