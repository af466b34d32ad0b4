import ArgumentParser
import Foundation
import Glibc
import WidgetControl
import WidgetProtocol

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List widgets with their next and last reload, as systemctl list-timers does.",
        discussion: """
            --json prints an array of {"id","kind","family","configuration","state","lastReload","lastReason",\
            "lastOutcome","nextReload","nextReason","tokens","currentEntry":{"date","content"}|null}: indented on \
            a terminal, on one line (the daemon's own bytes, fast for many widgets) into a pipe or a file.
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        try connection.run { client throws(ControlClientError) in
            guard json else {
                Console.print(Console.renderer().list(try client.call(ListMethod.self, NoParameters()).widgets))
                return
            }
            let message = try client.callRaw(ListMethod.self, NoParameters())
            // Into a pipe or a file, the daemon's own compact array goes through untouched; a terminal gets it
            // indented.
            if isatty(STDOUT_FILENO) == 0, let widgets = ReplyMember.array("widgets", in: message) {
                FileHandle.standardOutput.write(Data(widgets + [UInt8(ascii: "\n")]))
            } else {
                Console.print(JSONOutput.document(try ControlClient.decode(ListMethod.self, message: message).widgets))
            }
        }
    }
}
