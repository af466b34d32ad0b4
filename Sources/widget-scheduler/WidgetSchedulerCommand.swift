import ArgumentParser

@main
struct WidgetSchedulerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "widget-scheduler",
        abstract: "WidgetKit's timeline refresh machinery as a Linux system service.",
        subcommands: [SimulateCommand.self, RunProviderCommand.self]
    )
}
