// An app's side of the weather widget, as an iOS app does it (seeds 000, 001): save the location the user chose to
// the shared group, then ask the weather widgets to reload. `weather-app Oslo`
import Foundation
import WidgetCenter

let location = CommandLine.arguments.dropFirst().first ?? "Paris"
do {
    try WidgetGroupDefaults(suiteName: "weather").set(location, forKey: "location")
    for decision in try WidgetCenter.shared.reloadTimelines(ofKind: "weather") {
        print(decision)  // w1: ran at 2026-01-05T08:00:00Z, or w1: deferred until 2026-01-05T08:05:00Z (floor)
    }
} catch {
    FileHandle.standardError.write(Data("weather-app: \(error)\n".utf8))
    exit(1)
}
