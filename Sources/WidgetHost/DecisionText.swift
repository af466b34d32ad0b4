import Foundation
import WidgetProtocol

/// A reload decision in words, as the back side's Reload button and the configuration form show it: "Ran at
/// 14:02:07.", "Joined the run already planned for 14:05:00.", "Deferred until 14:07:00 because of the five-minute
/// floor."
public enum DecisionText {
    public static func describe(_ decision: ReloadDecision, timeZone: TimeZone = .current) -> String {
        let time = clock(decision.at, timeZone: timeZone)
        switch decision.decision {
        case .ran: return "Ran at \(time)."
        case .coalesced: return "Joined the run already planned for \(time)."
        case .deferred:
            let reason: String
            switch decision.because {
            case .floor?: reason = "the minimum interval between reloads (the floor)"
            case .budget?: reason = "the widget's daily budget is spent"
            case .backoff?: reason = "its provider failed and is backing off"
            case .concurrency?: reason = "other providers are running"
            case nil: reason = "the scheduler's rules"
            }
            return "Deferred until \(time) because of \(reason)."
        }
    }

    /// `HH:mm:ss`, with the date in front when it is not today.
    public static func clock(_ date: Date, timeZone: TimeZone = .current, now: Date = Date()) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let time = String(format: "%02d:%02d:%02d", parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
        guard !calendar.isDate(date, inSameDayAs: now) else { return time }
        return String(format: "%04d-%02d-%02d ", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0) + time
    }
}
