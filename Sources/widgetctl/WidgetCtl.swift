import ArgumentParser
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
    /// swift-argument-parser looks for them: `widgetctl --socket P status` is `widgetctl status --socket P`.
    static func main() {
        main(LeadingOptions.movedAfterCommand(Array(CommandLine.arguments.dropFirst())))
    }
}
