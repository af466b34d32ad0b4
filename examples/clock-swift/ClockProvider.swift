import Foundation
import WidgetProviderKit

struct ClockEntry: TimelineEntry {
    let date: Date
    /// `HH:mm` in the configured time zone.
    let time: String
    let timeZone: String
}

/// One entry per minute for the next hour, then a reload: the timeline a WidgetKit clock would give.
struct ClockProvider: TimelineProvider {
    func placeholder(in context: Context) -> ClockEntry {
        ClockEntry(date: context.now, time: "--:--", timeZone: "UTC")
    }

    func snapshot(in context: Context) async -> ClockEntry {
        entry(at: context.now, timeZone: timeZone(context))
    }

    func timeline(in context: Context) async -> Timeline<ClockEntry> {
        let zone = timeZone(context)
        let startOfMinute = Date(timeIntervalSince1970: (context.now.timeIntervalSince1970 / 60).rounded(.down) * 60)
        let entries = (0..<60).map { entry(at: startOfMinute.addingTimeInterval(Double($0) * 60), timeZone: zone) }
        return Timeline(entries: entries, policy: .atEnd)
    }

    func defaultConfiguration(in context: Context) async -> [String: ParameterValue] {
        ["timezone": .string(TimeZone.current.identifier)]
    }

    func options(for parameter: String, search: String?, in context: Context) async -> [ParameterOption] {
        guard parameter == "timezone" else { return [] }
        let needle = (search ?? "").lowercased()
        return TimeZone.knownTimeZoneIdentifiers
            .filter { needle.isEmpty || $0.lowercased().contains(needle) }
            .prefix(25)
            .map { identifier in
                let zone = TimeZone(identifier: identifier)
                let offset = zone.map { Self.offsetText($0.secondsFromGMT(for: context.now)) }
                return ParameterOption(value: .string(identifier), title: identifier, subtitle: offset)
            }
    }

    private func timeZone(_ context: Context) -> TimeZone {
        let configured = context.configuration["timezone"]?.stringValue.flatMap(TimeZone.init(identifier:))
        return configured ?? TimeZone(secondsFromGMT: 0) ?? .current
    }

    private func entry(at date: Date, timeZone: TimeZone) -> ClockEntry {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        let time = String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
        return ClockEntry(date: date, time: time, timeZone: timeZone.identifier)
    }

    private static func offsetText(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let minutes = abs(seconds) / 60
        return String(format: "UTC%@%02d:%02d", sign, minutes / 60, minutes % 60)
    }
}
