import ArgumentParser

@main
struct WidgetCtl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "widgetctl",
        abstract: "Control the widget-scheduler daemon."
    )
}
