import Foundation
import WidgetProtocol
import WidgetSchedulerCore

/// A widget's failed last run in words, as its card shows it beside the entry it keeps showing: "Not updated: its
/// provider was still running after 10 s, terminated. Trying again at 14:07:00." The daemon's outcome names the
/// failure (`exit`, `timeout`, ...), its `runFinished` event adds the details when the host saw it; the widget's state
/// says what happens next.
public enum RunFailureText {
    /// The sentence for `widget`'s last run, or nil when it did not fail (or is running again). `detail` is the
    /// failure's own sentence from the daemon's `runFinished` event, when the host has it.
    public static func describe(_ widget: WidgetSummary, detail: String?, timeZone: TimeZone = .current,
                                now: Date = Date()) -> String? {
        guard let outcome = widget.lastOutcome, outcome != "success", outcome != "running" else { return nil }
        var text = "Not updated: " + what(outcome: outcome, detail: detail) + "."
        switch widget.state {
        case "quarantined":
            text += " It failed too often and stopped updating: Reload on its back side tries again."
        case "backoff", "pending", "idle":
            if let next = widget.nextReload {
                text += " Trying again at \(DecisionText.clock(next, timeZone: timeZone, now: now))."
            }
        default:
            break
        }
        return text
    }

    /// What went wrong: the outcome's meaning with the daemon's detail when there is one. Some details read as
    /// what the provider did ("exited with status 2") and stand alone; the others follow the meaning in brackets.
    static func what(outcome: String, detail: String?) -> String {
        guard let detail = detail.map(trimmed), !detail.isEmpty else { return meaning(outcome) }
        switch RunFailureReason(rawValue: outcome) {
        case .exit?, .memory?, .outputTooLarge?: return "its provider " + detail
        default: return meaning(outcome) + " (" + detail + ")"
        }
    }

    static func meaning(_ outcome: String) -> String {
        switch RunFailureReason(rawValue: outcome) {
        case .exit?: return "its provider exited with an error"
        case .signal?: return "its provider was killed by a signal"
        case .timeout?: return "its provider took too long and was stopped"
        case .memory?: return "its provider ran out of memory"
        case .invalid?: return "its provider's answer was not valid"
        case .outputTooLarge?: return "its provider's answer was too large"
        case .spawn?: return "its provider could not be started"
        case .interrupted?: return "the scheduler stopped while it was updating"
        case .daemonDied?: return "the scheduler ended abruptly while it was updating"
        case nil: return "its last run ended with \"\(outcome)\""
        }
    }

    /// A detail on one line, at most a few hundred characters: it comes from the daemon, which may quote a
    /// provider's long answer.
    static func trimmed(_ detail: String) -> String {
        let line = detail.split(whereSeparator: \.isNewline).joined(separator: " ")
            .trimmingCharacters(in: .whitespaces)
        let limit = 240
        guard line.count > limit else { return line.hasSuffix(".") ? String(line.dropLast()) : line }
        return String(line.prefix(limit)) + "…"
    }
}
