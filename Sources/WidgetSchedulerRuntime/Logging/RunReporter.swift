import Foundation
import Logging
import WidgetProtocol
import WidgetProviders
import WidgetSchedulerCore

/// Tells the journal what runs and requests do, and writes the history lines that go with them into the state
/// batch: a run's start, its end (folded with the widget's like runs until the next state write, `RunLineFolder`), a
/// request's decision, and the scheduler's other news (back-off, quarantine, an exhausted budget, a clock jump).
///
/// A run's journal line and its history line come from the same `RunEnd` and are written together, so a folded line
/// stands for the same runs in both.
final class RunReporter {
    var logger: Logger
    /// Successful runs' lines, folded while a widget runs again, alike, before the next state write.
    private var runLines = RunLineFolder<RunEnd>()

    init(logger: Logger) {
        self.logger = logger
    }

    // MARK: - Runs

    /// A run still going once it has lasted a moment: its "running" line, with its pid. `developerMode` notes that
    /// a budgeted run went without floor and budget.
    func runStarted(id: String, kind: String, reason: RunReason, pid: Int32, tokens: Double, developerMode: Bool,
                    history: inout StateBatch) {
        writeFoldedRunLine(of: id, into: &history)
        let note = developerMode ? "; developer mode: budget and floor lifted" : ""
        // The widget's fields in the literal: this line and the run's end come with every run.
        logger.info("\(id): running \(kind) provider (\(reason.rawValue))\(note)", metadata: [
            JournalField.messageID: JournalMessageID.runStarted.metadataValue,
            JournalField.reloadReason: .string(reason.rawValue),
            JournalField.providerPID: .string(String(pid)),
            JournalField.tokens: .string(String(format: "%.2f", tokens)),
            JournalField.widgetID: .string(id),
            JournalField.widgetKind: .string(kind),
        ])
    }

    /// Writes a run's end line and history line, or folds them (`RunLineFolder`) when it is a success like the
    /// widget's previous line (the same stderr output, most often none) since the last state write. Any other line
    /// of the widget first writes the one kept.
    func runEnded(_ end: RunEnd, history: inout StateBatch) {
        guard case .success = end.outcome else {
            writeFoldedRunLine(of: end.id, into: &history)
            writeRunLine(end, earlierRuns: 0, into: &history)
            return
        }
        switch runLines.fold(end.id, end, likeness: end.stderrTail) {
        case .folded:
            break
        case .writeNow(let kept):
            if let kept { writeRunLine(kept.line, earlierRuns: kept.earlierRuns, into: &history) }
            writeRunLine(end, earlierRuns: 0, into: &history)
        }
    }

    /// The history line the widget's runs folded since the last write will have, if any: for the budget ledger,
    /// which counts runs not yet written.
    func unwrittenFoldedHistory(of id: String) -> HistoryRecord? {
        runLines.kept(id).map { historyRecord(of: $0.line, earlierRuns: $0.earlierRuns) }
    }

    /// Writes the widget's folded run line, if one is kept, before another of its lines.
    func writeFoldedRunLine(of id: String, into history: inout StateBatch) {
        guard let folded = runLines.take(id) else { return }
        writeRunLine(folded.line, earlierRuns: folded.earlierRuns, into: &history)
    }

    /// Writes every folded run line: at each state write, so a run's line is at most one write late.
    func writeFoldedRunLines(into history: inout StateBatch) {
        for (_, folded) in runLines.takeAll() {
            writeRunLine(folded.line, earlierRuns: folded.earlierRuns, into: &history)
        }
    }

    /// A run line's history line, which stands for the run and the `earlierRuns` folded into it.
    private func historyRecord(of end: RunEnd, earlierRuns: Int) -> HistoryRecord {
        HistoryRecord(widgetID: end.id, at: end.at.wall, monotonic: end.at.monotonic, event: .run,
                      reason: end.reason.rawValue, outcome: end.outcome.name, detail: end.outcome.detail,
                      runs: earlierRuns + 1)
    }

    /// A run's "run finished" or "run failed" line, and its history line; `earlierRuns` is how many of the widget's
    /// successful runs before it, alike, were folded into it (`RUNS_FOLDED`; the history line's `runs` counts them
    /// with it).
    private func writeRunLine(_ end: RunEnd, earlierRuns: Int, into history: inout StateBatch) {
        history.appendHistory(historyRecord(of: end, earlierRuns: earlierRuns))
        let stderr = end.stderrTail.isEmpty ? "" : end.stderrTail.trimmingCharacters(in: .whitespacesAndNewlines)
        let tail = stderr.isEmpty ? "" : "; stderr: \(stderr.suffix(400))"
        let (id, kind, stats) = (end.id, end.kind, end.stats)
        // The widget's fields in the literal, as in `runStarted`.
        var fields: Logger.Metadata = [
            JournalField.reloadReason: .string(end.reason.rawValue),
            JournalField.providerPID: .string(String(stats.pid)),
            JournalField.durationUsec: .string(String(Int(saturating: stats.duration * 1_000_000))),
            JournalField.tokens: .string(String(format: "%.2f", end.tokens)),
            JournalField.widgetID: .string(id),
            JournalField.widgetKind: .string(kind),
        ]
        // A run that started has its exit status and its limits, one that did not neither.
        if let status = stats.exitStatus {
            fields[JournalField.exitStatus] = .string(status)
            fields[JournalField.limits] = .string(stats.limits ?? RunLimits.process.rawValue)
        }
        switch end.outcome {
        case .success(let timeline):
            fields[JournalField.messageID] = JournalMessageID.runFinished.metadataValue
            fields[JournalField.policy] = .string(timeline.policy.name)
            let foldedText: String
            if earlierRuns > 0 {
                fields[JournalField.runsFolded] = .string(String(earlierRuns))
                foldedText = "; \(earlierRuns) earlier successful \(earlierRuns == 1 ? "run" : "runs") folded into "
                    + "this line"
            } else {
                foldedText = ""
            }
            let text = "\(id): \(kind) provider answered \(timeline.entries.count) entries, policy "
                + "\(timeline.policy.summary)\(foldedText)\(tail)"
            logger.info("\(text)", metadata: fields)
        case .failure(let failure, let detail):
            fields[JournalField.messageID] = JournalMessageID.runFailed.metadataValue
            fields[JournalField.failureReason] = .string(failure.rawValue)
            logger.warning("\(id): \(kind) provider failed (\(failure)): \(detail)\(tail)", metadata: fields)
        }
    }

    // MARK: - Requests and the scheduler's news

    /// A request's decision that changed the widget's plan: its journal line and history line. `reloadReason` is the
    /// reason of the run planned or in flight.
    func decided(_ decided: RequestDecision, kind: String?, tokens: Double, reloadReason: RunReason?,
                 at now: Instant, history: inout StateBatch) {
        let id = decided.widget
        // The runs before the request keep their place before its decision, in the journal and in the history.
        writeFoldedRunLine(of: id, into: &history)
        let at = RFC3339.string(from: now.wall(atMonotonic: decided.decision.at))
        var fields: Logger.Metadata = [
            JournalField.messageID: JournalMessageID.requestDecided.metadataValue,
            JournalField.decision: "\(decided.decision.name)",
            JournalField.nextReload: "\(at)",
            JournalField.tokens: .string(String(format: "%.2f", tokens)),
        ]
        var text = "\(id): reload request \(decided.decision.name)"
        if let because = decided.decision.because {
            fields[JournalField.because] = "\(because.rawValue)"
            // A run waiting for a slot has no planned time of its own: it starts when a running provider ends.
            text += because == .concurrency ? " until a run slot is free (\(because.phrase))"
                : " until \(at) (\(because.phrase))"
        } else if case .coalesced = decided.decision {
            text += " with the run at \(at)"
        }
        if let reloadReason { fields[JournalField.reloadReason] = "\(reloadReason.rawValue)" }
        logger.info("\(text)", metadata: Self.metadata(id, kind: kind, fields))
        history.appendHistory(HistoryRecord(widgetID: id, at: now.wall, monotonic: now.monotonic, event: .decision,
                                            reason: fields[JournalField.reloadReason].map { "\($0)" } ?? "explicit",
                                            outcome: decided.decision.name,
                                            because: decided.decision.because?.rawValue))
    }

    /// The scheduler backs a failing widget off.
    func backedOff(_ id: String, kind: String?, failures: Int, until: Date) {
        let next = RFC3339.string(from: until)
        logger.info("\(id): backing off until \(next) after \(failures) consecutive failure(s)",
                    metadata: Self.metadata(id, kind: kind, [JournalField.nextReload: "\(next)"]))
    }

    /// The scheduler quarantines a widget; `reason` is its last run's outcome.
    func quarantined(_ id: String, kind: String?, failures: Int, reason: String) {
        let text = "\(id): quarantined after \(failures) consecutive failures; an explicit, foreground or "
            + "configuration request lifts it"
        logger.warning("\(text)", metadata: Self.metadata(id, kind: kind, [
            JournalField.messageID: JournalMessageID.quarantined.metadataValue,
            JournalField.failureReason: "\(reason)"]))
    }

    /// A widget's budget is spent until its next token.
    func budgetExhausted(_ id: String, kind: String?, nextToken: Date, tokens: Double) {
        let next = RFC3339.string(from: nextToken)
        let fields: Logger.Metadata = [
            JournalField.messageID: JournalMessageID.budgetExhausted.metadataValue,
            JournalField.nextReload: "\(next)",
            JournalField.tokens: .string(String(format: "%.2f", tokens)),
        ]
        logger.notice("\(id): refresh budget exhausted; next token at \(next)",
                      metadata: Self.metadata(id, kind: kind, fields))
    }

    /// The wall clock jumped by `delta` seconds.
    func wallClockJumped(by delta: Double) {
        logger.notice("wall clock jumped by \(String(format: "%+.3f", delta)) s; deadlines recomputed",
                      metadata: [JournalField.messageID: JournalMessageID.clockChanged.metadataValue])
    }

    /// A widget's fields, `extra` winning over them.
    static func metadata(_ id: String, kind: String?, _ extra: Logger.Metadata = [:]) -> Logger.Metadata {
        var fields = extra
        if fields[JournalField.widgetID] == nil { fields[JournalField.widgetID] = .string(id) }
        if fields[JournalField.widgetKind] == nil, let kind { fields[JournalField.widgetKind] = .string(kind) }
        return fields
    }
}
