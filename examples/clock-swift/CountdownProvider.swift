import Foundation
import WidgetProviderKit

struct CountdownEntry: TimelineEntry {
    let date: Date
    let title: String
    /// The date counted down to: the views' timer text counts to it each second, with no entry a second.
    let target: Date
    /// "3d 4h 05m", or "now" once the target has passed.
    let remaining: String
    /// True within a day of the target (the small view then shows a timer, not "in 12 days"); absent otherwise,
    /// as the views' `if` tests a field's presence.
    let near: Bool?
    /// True once the target has passed; absent before.
    let finished: Bool?
    let relevance: TimelineEntryRelevance?
}

/// Counts down to a date, with entries five minutes apart (as WidgetKit advises) for up to a day, and grows more
/// relevant in the last hour.
struct CountdownProvider: TimelineProvider {
    private static let step: TimeInterval = 300
    private static let horizon: TimeInterval = 86_400

    func placeholder(in context: Context) -> CountdownEntry {
        CountdownEntry(date: context.now, title: "Countdown", target: context.now.addingTimeInterval(Self.horizon),
                       remaining: "1d 0h 00m", near: nil, finished: nil, relevance: nil)
    }

    func snapshot(in context: Context) async -> CountdownEntry {
        entry(at: context.now, target: target(context), title: title(context))
    }

    func timeline(in context: Context) async -> Timeline<CountdownEntry> {
        let target = target(context)
        let title = title(context)
        guard target > context.now else {
            return Timeline(entries: [entry(at: context.now, target: target, title: title)], policy: .never)
        }
        let end = min(target, context.now.addingTimeInterval(Self.horizon))
        var dates = Array(stride(from: context.now.timeIntervalSince1970, to: end.timeIntervalSince1970, by: Self.step))
            .map(Date.init(timeIntervalSince1970:))
        if target <= end { dates.append(target) }
        let entries = dates.map { entry(at: $0, target: target, title: title) }
        return Timeline(entries: entries, policy: target <= end ? .never : .atEnd)
    }

    func defaultConfiguration(in context: Context) async -> [String: ParameterValue] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? .current
        let year = calendar.component(.year, from: context.now) + 1
        let newYear = calendar.date(from: DateComponents(year: year, month: 1, day: 1)) ?? context.now
        return ["until": .string(ISO8601DateFormatter().string(from: newYear)), "title": .string("New Year \(year)")]
    }

    private func target(_ context: Context) -> Date {
        context.configuration["until"]?.dateValue ?? context.now.addingTimeInterval(Self.horizon)
    }

    private func title(_ context: Context) -> String {
        context.configuration["title"]?.stringValue ?? "Countdown"
    }

    private func entry(at date: Date, target: Date, title: String) -> CountdownEntry {
        let seconds = Int(target.timeIntervalSince(date).rounded())
        guard seconds > 0 else {
            return CountdownEntry(date: date, title: title, target: target, remaining: "now", near: true,
                                  finished: true, relevance: TimelineEntryRelevance(score: 100, duration: 3600))
        }
        let minutes = (seconds + 59) / 60
        let remaining = String(format: "%dd %dh %02dm", minutes / 1440, minutes / 60 % 24, minutes % 60)
        let relevance = seconds <= 3600 ? TimelineEntryRelevance(score: Float(60 - seconds / 60)) : nil
        return CountdownEntry(date: date, title: title, target: target, remaining: remaining,
                              near: seconds <= Int(Self.horizon) ? true : nil, finished: nil, relevance: relevance)
    }
}
