import ArgumentParser
import WidgetProtocol

@main
struct WidgetSchedulerCommand: ParsableCommand {
    static let version = ProductVersion.current

    static let configuration = CommandConfiguration(
        commandName: "widget-scheduler",
        abstract: "WidgetKit's timeline refresh machinery as a Linux system service.",
        discussion: "With no subcommand it runs the daemon in the foreground (see `widget-scheduler run --help`).",
        version: version,
        subcommands: [DaemonCommand.self, SimulateCommand.self, RunProviderCommand.self],
        defaultSubcommand: DaemonCommand.self
    )
}
