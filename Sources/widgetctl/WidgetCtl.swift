import ArgumentParser
import Foundation
import WidgetControl
import WidgetProtocol

@main
struct WidgetCtl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "widgetctl",
        abstract: "Control the widget-scheduler daemon: widgets, reloads, timelines, budgets, shared data.",
        discussion: """
            widgetctl talks to the daemon over its Varlink socket (--socket, else $WIDGET_SCHEDULER_SOCKET, else \
            /run/widget-scheduler/control.socket). Every read command has --json; dates there are RFC 3339.

            Exit status: 0 success; 1 the daemon failed the request; 2 the daemon rejected a parameter; \
            3 the daemon is not running; 4 permission denied; 5 unknown kind, widget or key; \
            64 bad command-line arguments.

            Connection options (--socket) may come before the command as well as after it.
            """,
        version: ProductVersion.current,
        subcommands: [
            ListCommand.self, KindsCommand.self, StatusCommand.self, AddCommand.self, RemoveCommand.self,
            ConfigureCommand.self, OptionsCommand.self, ReloadCommand.self, TimelineCommand.self, BudgetCommand.self,
            WatchCommand.self, ShowCommand.self, StackCommand.self, DataCommand.self,
        ]
    )

    /// Parses the command line with connection options given before the command moved after it, where
    /// swift-argument-parser looks for them (`widgetctl --socket P status` is `widgetctl status --socket P`), then
    /// checks how the arguments combine, then runs the command.
    static func main() {
        let command: ParsableCommand
        do {
            command = try parse(Array(CommandLine.arguments.dropFirst()))
        } catch {
            exit(withError: error)
        }
        do {
            try check(command)
        } catch {
            let type = Swift.type(of: command)
            let name = type.configuration.commandName ?? ""
            FileHandle.standardError.write(Data("""
                Error: \(message(for: error))
                \(usageString(for: type))
                  See 'widgetctl \(name) --help' for more information.

                """.utf8))
            exit(withError: ExitCode.validationFailure)
        }
        do {
            var command = command
            try command.run()
        } catch {
            exit(withError: error)
        }
    }

    /// The command `arguments` (without the program name) give, connection options before the command moved after
    /// it; an unknown option or a malformed value throws here, before any combination is judged.
    static func parse(_ arguments: [String]) throws -> ParsableCommand {
        try parseAsRoot(LeadingOptions.movedAfterCommand(arguments))
    }

    /// Throws a `ValidationError` when `command`'s arguments do not combine (`CheckedCommand`).
    ///
    /// The combination checks come after parsing, not in `validate()`: swift-argument-parser validates before it
    /// reports unknown options, so `reload --frobnicate` would say "give exactly one of --kind…" rather than that
    /// `--frobnicate` is unknown.
    static func check(_ command: ParsableCommand) throws {
        try (command as? CheckedCommand)?.checkArguments()
    }

    /// `parse` then `check`: what `main` accepts before it runs a command.
    static func parseChecked(_ arguments: [String]) throws -> ParsableCommand {
        let command = try parse(arguments)
        try check(command)
        return command
    }
}
