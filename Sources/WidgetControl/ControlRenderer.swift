import Foundation
import WidgetProtocol
import WidgetSchedulerCore

/// Human output of every `widgetctl` command, as lines, from the daemon's replies. Pure: the clock, time zone and
/// palette come in, so tests pin the text.
public struct ControlRenderer: Sendable {
    public var time: TimeText
    public var palette: Palette

    public init(time: TimeText = TimeText(), palette: Palette = Palette(enabled: false)) {
        self.time = time
        self.palette = palette
    }

    // MARK: - list

    /// `systemctl list-timers` style: NEXT, LEFT, LAST, PASSED, WIDGET, KIND, STATE, soonest first.
    public func list(_ widgets: [WidgetSummary]) -> [String] {
        let ordered = widgets.sorted { lhs, rhs in
            switch (lhs.nextReload, rhs.nextReload) {
            case let (left?, right?) where left != right: return left < right
            case (.some, nil): return true
            case (nil, .some): return false
            default: return lhs.id < rhs.id
            }
        }
        let rows = ordered.map { widget in
            [
                widget.nextReload.map(time.full) ?? "-", time.left(widget.nextReload),
                widget.lastReload.map(time.full) ?? "-", time.passed(widget.lastReload),
                widget.id, widget.kind, widget.state,
            ]
        }
        let table = TextTable(headers: ["NEXT", "LEFT", "LAST", "PASSED", "WIDGET", "KIND", "STATE"], rows: rows)
        let lines = table.render(palette: palette) { _, column, cell in column == 6 ? stateColour(cell) : cell }
        let count = widgets.count
        return lines + ["", "\(Counted.phrase(count, "widget")) listed."]
    }

    private func stateColour(_ state: String) -> String {
        switch state {
        case "quarantined": return palette.red(state)
        case "backoff": return palette.yellow(state)
        case "running": return palette.green(state)
        default: return state
        }
    }

    // MARK: - reload, configure, data set

    /// One plain sentence per decision: `w3: deferred until 10:42:07 (minimum interval)`; for a request that named
    /// no widget, a sentence saying so: `no widgets of kind weather`.
    public func decisions(_ decisions: [ReloadDecision], kind: String? = nil) -> [String] {
        guard !decisions.isEmpty else { return [kind.map { "no widgets of kind \($0)" } ?? "no widgets"] }
        return decisions.map(decision)
    }

    /// `w1: ran at 10:37:07`, `w2: coalesced into the run at 10:42:07`, `w3: deferred until 10:42:07 (budget
    /// exhausted)`, `w4: deferred until a run slot is free (concurrency limit)`.
    public func decision(_ decision: ReloadDecision) -> String {
        let at = time.clock(decision.at)
        switch decision.decision {
        case .ran: return "\(decision.widget): ran at \(at)"
        case .coalesced: return "\(decision.widget): coalesced into the run at \(at)"
        case .deferred where decision.because == .concurrency:
            // Its time is only when it became eligible: it starts as soon as a running provider ends.
            return "\(decision.widget): \(palette.yellow("deferred")) until a run slot is free (concurrency limit)"
        case .deferred:
            let reason = decision.because.map { " (\($0.phrase))" } ?? ""
            return "\(decision.widget): \(palette.yellow("deferred")) until \(at)\(reason)"
        }
    }

    // MARK: - kinds

    public func kinds(_ kinds: [KindsMethod.Kind]) -> [String] {
        let rows = kinds.sorted { $0.kind < $1.kind }.map { kind -> [String] in
            let owners = (kind.ownerUsers + kind.ownerGroups.map { "@" + $0 }).joined(separator: ",")
            return [
                kind.kind + (kind.developerMode ? " (developer)" : ""), kind.families.joined(separator: ","),
                String(kind.widgets), kind.parameters.map(\.name).joined(separator: ","),
                kind.group ?? "-", owners.isEmpty ? "-" : owners,
            ]
        }
        let table = TextTable(headers: ["KIND", "FAMILIES", "WIDGETS", "PARAMETERS", "GROUP", "OWNERS"], rows: rows)
        return table.render(palette: palette) + ["", "\(kinds.count) \(kinds.count == 1 ? "kind" : "kinds")."]
    }

    // MARK: - status

    public func status(_ status: StatusMethod.Reply) -> [String] {
        var lines = [
            palette.bold("widget-scheduler \(status.version)") + " (pid \(status.pid))",
            "     Status: \(status.status)",
            "    Started: \(time.full(status.startedAt)) (\(time.relative(status.startedAt)))",
            "    Widgets: \(status.widgets) in \(status.kinds) \(status.kinds == 1 ? "kind" : "kinds"); "
                + "\(status.running) running, \(status.pending) pending, \(status.quarantined) quarantined",
        ]
        if let next = status.nextReload {
            lines.append(
                "Next reload: \(next.kind)/\(next.widget) at \(time.clockAndRelative(next.at)), \(next.reason)")
        } else {
            lines.append("Next reload: none planned")
        }
        let settings = status.settings
        lines.append("     Budget: \(number(settings.dailyBudget)) a day, burst \(number(settings.burstBudget)), "
            + "minimum interval \(TimeText.span(settings.minimumInterval)), "
            + "\(settings.maxConcurrentRuns) concurrent runs")
        if !settings.developerKinds.isEmpty {
            lines.append("  Developer: \(settings.developerKinds.joined(separator: ", ")) (no budget, no floor)")
        }
        if let directories = status.providerDirectories {
            let read = directories.map { directory in
                directory.state == "read" ? "\(directory.path) (\(Counted.phrase(directory.manifests, "manifest")))"
                    : "\(directory.path) (\(palette.yellow(directory.state)))"
            }
            lines.append("  Providers: " + (read.isEmpty ? "none" : read.joined(separator: ", ")))
        }
        lines.append("      State: \(status.stateDirectory)")
        if let failure = status.stateNotWritten {
            let since = time.clockAndRelative(failure.since)
            lines.append("   Degraded: " + palette.red("state not written since \(since)")
                + " (\(failure.cause)); \(failure.attempts) attempt\(failure.attempts == 1 ? "" : "s"), next "
                + time.relative(failure.nextAttempt))
        }
        lines.append("     Socket: \(status.socket)")
        return lines
    }

    // MARK: - timeline

    public func timeline(_ timeline: TimelineMethod.Reply) -> [String] {
        var lines = [palette.bold("\(timeline.widget) (\(timeline.kind))")]
        guard let policy = timeline.policy else {
            return lines + ["No timeline yet."]
        }
        var policyText = "Policy: \(policy.policy)"
        if let date = policy.date { policyText += " \(time.clockAndRelative(date))" }
        lines.append(policyText)
        if let next = timeline.nextReload {
            lines.append("Next reload: \(time.clockAndRelative(next))" + (timeline.nextReason.map { ", \($0)" } ?? ""))
        } else {
            lines.append("Next reload: none planned")
        }
        let rows = timeline.entries.map { entry -> [String] in
            let relevance = entry.relevance.map {
                "\(number($0.score))" + ($0.duration > 0 ? " for \(TimeText.span($0.duration))" : "")
            }
            return [entry.current ? "*" : "", time.clock(entry.date), time.relative(entry.date), relevance ?? "-",
                    entry.content.jsonText()]
        }
        let table = TextTable(headers: ["", "DATE", "WHEN", "RELEVANCE", "CONTENT"], rows: rows)
        lines.append("")
        lines += table.render(palette: palette) { row, _, cell in
            timeline.entries[row].current ? palette.bold(cell) : cell
        }
        return lines
    }

    // MARK: - budget

    public func budget(_ ledgers: [BudgetMethod.Ledger]) -> [String] {
        var lines: [String] = []
        for ledger in ledgers {
            if !lines.isEmpty { lines.append("") }
            lines.append(palette.bold("\(ledger.widget) (\(ledger.kind))")
                + (ledger.developerMode ? " developer mode: no budget, no floor" : ""))
            let nextToken = ledger.nextTokenAt.map { ", next at \(time.clockAndRelative($0))" } ?? ""
            lines.append("      Tokens: \(number(ledger.tokens, places: 2)) of \(number(ledger.capacity))\(nextToken)")
            let floor = ledger.floorLiftsAt.map { "lifts at \(time.clockAndRelative($0))" } ?? "open"
            lines.append("       Floor: \(TimeText.span(ledger.minimumInterval)), \(floor)")
            lines.append("    Last 24h: \(ledger.budgetedRuns24h) budgeted, \(ledger.exemptRuns24h) exempt")
            var failures = "    Failures: \(ledger.consecutiveFailures) in a row"
            if let until = ledger.backoffUntil { failures += ", backing off until \(time.clockAndRelative(until))" }
            if ledger.quarantined { failures += ", " + palette.red("quarantined") }
            lines.append(failures)
            if !ledger.runs.isEmpty {
                let rows = ledger.runs.map {
                    ["  " + time.clock($0.at), time.passed($0.at), $0.reason, $0.budgeted ? "budgeted" : "exempt",
                     $0.outcome + ($0.count.map { " ×\($0)" } ?? "")]
                }
                lines += TextTable(headers: ["  RUN", "PASSED", "REASON", "COST", "OUTCOME"], rows: rows)
                    .render(palette: palette)
            }
        }
        return lines.isEmpty ? ["No widgets."] : lines
    }

    // MARK: - stack

    public func stack(_ items: [StackMethod.Item]) -> [String] {
        let rows = items.enumerated().map { index, item -> [String] in
            [String(index + 1), item.widget, item.kind, item.score.map { number($0) } ?? "-",
             item.normalized.map { "\(Int(saturating: $0 * 100))%" } ?? "-", item.explanation]
        }
        return TextTable(headers: ["#", "WIDGET", "KIND", "SCORE", "OWN MAX", "WHY"], rows: rows)
            .render(palette: palette)
    }

    // MARK: - options

    public func options(_ reply: OptionsMethod.Reply) -> [String] {
        let rows = reply.options.map { [$0.value.stringValue ?? $0.value.jsonText(), $0.title ?? ""] }
        return TextTable(headers: ["VALUE", "TITLE"], rows: rows).render(palette: palette)
            + ["", "\(Counted.phrase(reply.options.count, "option")) from the \(reply.source.rawValue)."]
    }

    // MARK: - data

    public func dataItems(_ items: [DataItem]) -> [String] {
        let rows = items.sorted { $0.key < $1.key }.map {
            [$0.key, time.full($0.updatedAt), time.passed($0.updatedAt), $0.value]
        }
        return TextTable(headers: ["KEY", "UPDATED", "PASSED", "VALUE"], rows: rows).render(palette: palette)
    }

    // MARK: - watch

    /// One line per event: `10:42:07 w1 (weather) entry {"temp":3}`.
    public func watchEvent(_ event: WatchEvent) -> String {
        let head = "\(time.clock(event.date)) \(event.widget) (\(event.kind))"
        switch event.event {
        case .entryChanged:
            return "\(head) entry \((event.content ?? .null).jsonText())"
        case .runFinished:
            let outcome = event.outcome ?? "?"
            let shown = outcome == "success" ? palette.green(outcome) : palette.red(outcome)
            return "\(head) run (\(event.reason ?? "?")) finished: \(shown)" + (event.detail.map { ": \($0)" } ?? "")
        case .decision:
            let decision = ReloadDecision(
                widget: event.widget, decision: event.decision ?? .ran, at: event.at ?? event.date,
                because: event.because.flatMap(DeferralReason.init(rawValue:)))
            return "\(time.clock(event.date)) \(self.decision(decision))"
        }
    }

    private func number(_ value: Double, places: Int = 1) -> String {
        if let whole = Int64(exactly: value) { return String(whole) }
        // Beyond 2^53 every double is whole, and "%f" would write hundreds of digits.
        if !value.isFinite || abs(value) >= 1e15 { return String(value) }
        return String(format: "%.\(places)f", value)
    }
}
