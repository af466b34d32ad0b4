import Foundation
import WidgetProviderKit

/// Serves the `clock` and `countdown` kinds from one executable, as a WidgetKit widget bundle would.
@main
struct ClockWidgets: WidgetBundle {
    var body: some Widget {
        ClockWidget()
        CountdownWidget()
    }
}

struct ClockWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "clock", provider: ClockProvider())
            .configurationDisplayName("Clock")
            .description("The time in a chosen time zone.")
    }
}

struct CountdownWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "countdown", provider: CountdownProvider())
            .configurationDisplayName("Countdown")
            .description("Days, hours and minutes until a date.")
    }
}
