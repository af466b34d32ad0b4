import Foundation
import Testing
import WidgetControl
import WidgetProtocol

@Suite struct ControlRendererTests {
    /// Sun 2026-11-22 10:37:07 UTC.
    private let now = Date(timeIntervalSince1970: 1_795_343_827)
    private var renderer: ControlRenderer {
        ControlRenderer(time: TimeText(now: now, timeZone: TimeZone(identifier: "UTC")!))
    }

    @Test func reloadDecisionsReadAsPlainSentences() {
        let lines = renderer.decisions([
            ReloadDecision(widget: "w1", decision: .ran, at: now),
            ReloadDecision(widget: "w2", decision: .coalesced, at: now.addingTimeInterval(300)),
            ReloadDecision(widget: "w3", decision: .deferred, at: now.addingTimeInterval(300), because: .floor),
            ReloadDecision(widget: "w4", decision: .deferred, at: now.addingTimeInterval(86_400), because: .budget),
            ReloadDecision(widget: "w5", decision: .deferred, at: now, because: .concurrency),
        ])
        #expect(lines == [
            "w1: ran at 10:37:07",
            "w2: coalesced into the run at 10:42:07",
            "w3: deferred until 10:42:07 (minimum interval)",
            "w4: deferred until 2026-11-23 10:37:07 (budget exhausted)",
            "w5: deferred until a run slot is free (concurrency limit)",
        ])
    }

    @Test func listLooksLikeSystemctlListTimers() {
        let lines = renderer.list([
            WidgetSummary(
                id: "w2", kind: "clock", family: "small", configuration: [:], state: "idle", tokens: 12),
            WidgetSummary(
                id: "w3", kind: "weather", family: "small", configuration: [:], state: "pending",
                lastReload: now.addingTimeInterval(-56), nextReload: now.addingTimeInterval(243), tokens: 3),
        ])
        #expect(lines == [
            "NEXT                         LEFT     LAST                         PASSED   WIDGET  KIND     STATE",
            "Sun 2026-11-22 10:41:10 UTC  4min 3s  Sun 2026-11-22 10:36:11 UTC  56s ago  w3      weather  pending",
            "-                            -        -                            -        w2      clock    idle",
            "",
            "2 widgets listed.",
        ])
    }

    @Test func colourAppearsOnlyWhenThePaletteIsOn() {
        let decision = ReloadDecision(widget: "w3", decision: .deferred, at: now, because: .floor)
        #expect(!renderer.decision(decision).contains("\u{1B}["))
        var coloured = renderer
        coloured.palette = Palette(enabled: true)
        #expect(coloured.decision(decision).contains("\u{1B}[33mdeferred\u{1B}[0m"))
    }

    @Test(arguments: [(Bool, [String: String], Bool)]([
        (true, [:], true),
        (false, [:], false),
        (true, ["NO_COLOR": "1"], false),
        (true, ["NO_COLOR": ""], true),
        (true, ["TERM": "dumb"], false),
    ]))
    func colourNeedsATerminalAndNoNOCOLOR(isTerminal: Bool, environment: [String: String], enabled: Bool) {
        #expect(Palette.detect(isTerminal: isTerminal, environment: environment).enabled == enabled)
    }

    @Test(arguments: [(Double, String)]([
        (0, "0s"), (0.25, "250ms"), (56, "56s"), (243, "4min 3s"), (3_720, "1h 2min"), (90_000, "1 day 1h"),
        (2 * 86_400 + 7, "2 days 7s"),
    ]))
    func spansAreWrittenAsSystemdDoes(seconds: Double, text: String) {
        #expect(TimeText.span(seconds) == text)
    }

    @Test func relativeTimesSayInOrAgo() {
        let time = renderer.time
        #expect(time.relative(now.addingTimeInterval(240)) == "in 4min")
        #expect(time.relative(now.addingTimeInterval(-180)) == "3min ago")
        #expect(time.relative(now) == "now")
        #expect(time.clockAndRelative(now.addingTimeInterval(240)) == "10:41:07 (in 4min)")
        #expect(time.left(now.addingTimeInterval(-1)) == "overdue")
    }

    @Test func timelineMarksTheCurrentEntryAndShowsPolicyAndNextReload() {
        let lines = renderer.timeline(TimelineMethod.Reply(
            widget: "w1", kind: "weather", family: "systemSmall", policy: .init(policy: "atEnd"),
            entries: [
                .init(date: now.addingTimeInterval(-60), relevance: .init(score: 2, duration: 0),
                      content: .object(["t": .integer(3)]), current: true),
                .init(date: now.addingTimeInterval(60), content: .object(["t": .integer(4)]), current: false),
            ],
            nextReload: now.addingTimeInterval(120), nextReason: "policy"))
        #expect(lines == [
            "w1 (weather)",
            "Policy: atEnd",
            "Next reload: 10:39:07 (in 2min), policy",
            "",
            "   DATE      WHEN      RELEVANCE  CONTENT",
            "*  10:36:07  1min ago  2          {\"t\":3}",
            "   10:38:07  in 1min   -          {\"t\":4}",
        ])
    }

    @Test func widgetWithoutTimelineSaysSo() {
        let lines = renderer.timeline(.init(widget: "w9", kind: "clock", family: "systemSmall", policy: nil,
                                            entries: []))
        #expect(lines == ["w9 (clock)", "No timeline yet."])
    }

    @Test func budgetShowsTokensFloorRunsAndQuarantine() {
        let lines = renderer.budget([
            .init(
                widget: "w1", kind: "weather", tokens: 2.5, capacity: 12, nextTokenAt: now.addingTimeInterval(600),
                minimumInterval: 300, floorLiftsAt: nil, developerMode: false, budgetedRuns24h: 10, exemptRuns24h: 1,
                runs: [.init(at: now.addingTimeInterval(-600), reason: "policy", outcome: "success", budgeted: true)],
                consecutiveFailures: 0, backoffUntil: nil, quarantined: true),
        ])
        #expect(lines == [
            "w1 (weather)",
            "      Tokens: 2.50 of 12, next at 10:47:07 (in 10min)",
            "       Floor: 5min, open",
            "    Last 24h: 10 budgeted, 1 exempt",
            "    Failures: 0 in a row, quarantined",
            "  RUN       PASSED     REASON  COST      OUTCOME",
            "  10:27:07  10min ago  policy  budgeted  success",
        ])
    }

    @Test func aBudgetLineStandingForFoldedRunsSaysHowMany() {
        let lines = renderer.budget([
            .init(
                widget: "w2", kind: "clock", tokens: 12, capacity: 12, nextTokenAt: nil, minimumInterval: 300,
                floorLiftsAt: nil, developerMode: true, budgetedRuns24h: 41, exemptRuns24h: 0,
                runs: [.init(at: now.addingTimeInterval(-1), reason: "policy", outcome: "success", budgeted: true),
                       .init(at: now, reason: "policy", outcome: "success", budgeted: true, count: 40)],
                consecutiveFailures: 0, backoffUntil: nil, quarantined: false),
        ])
        #expect(lines.suffix(2) == [
            "  10:37:06  1s ago  policy  budgeted  success",
            "  10:37:07  0s ago  policy  budgeted  success ×40",
        ])
    }

    @Test func watchEventsAreOneLineEach() {
        let entry = WatchEvent.entryChanged(
            widget: "w1", kind: "weather", date: now, content: .object(["t": .integer(3)]))
        #expect(renderer.watchEvent(entry) == #"10:37:07 w1 (weather) entry {"t":3}"#)
        let run = WatchEvent.runFinished(
            widget: "w1", kind: "weather", date: now, reason: "policy", outcome: "timeout", detail: "killed")
        #expect(renderer.watchEvent(run) == "10:37:07 w1 (weather) run (policy) finished: timeout: killed")
        let decided = WatchEvent.decided(kind: "weather", date: now, decision: ReloadDecision(
            widget: "w1", decision: .deferred, at: now.addingTimeInterval(60), because: .backoff))
        #expect(renderer.watchEvent(decided) == "10:37:07 w1: deferred until 10:38:07 (backoff after failure)")
        #expect(JSONOutput.line(entry)
            == #"{"content":{"t":3},"date":"2026-11-22T10:37:07Z","event":"entryChanged","kind":"weather","#
            + #""widget":"w1"}"#)
    }

    @Test func stackListsMostRelevantFirstWithWhy() {
        let lines = renderer.stack([
            .init(widget: "w2", kind: "news", score: 8, normalized: 1, relevant: true, until: nil, explanation: "peak"),
            .init(widget: "w1", kind: "clock", score: nil, normalized: nil, relevant: false, until: nil,
                  explanation: "no relevance holds now"),
        ])
        #expect(lines == [
            "#  WIDGET  KIND   SCORE  OWN MAX  WHY",
            "1  w2      news   8      100%     peak",
            "2  w1      clock  -      -        no relevance holds now",
        ])
    }

    /// Numbers a reply may carry, from a daemon of another version or a hostile peer on the socket: the client
    /// renders every one, whatever it is.
    static let extremeNumbers: [Double] = [
        0, -0.0, 1e-300, 0.5, 1e15, 1e17, 9.3e18, 1e300, -1e300, .greatestFiniteMagnitude, .infinity, -.infinity,
        .nan,
    ]

    /// The earliest and latest dates a reply's RFC 3339 text can hold (years 0000 and 9999 with an offset).
    static let extremeDates: [Date] = [
        Date(timeIntervalSince1970: -62_167_305_540), Date(timeIntervalSince1970: 253_402_387_140),
    ]

    @Test("any number or date in a reply renders without stopping widgetctl", arguments: extremeNumbers)
    func extremeNumbersRender(_ value: Double) {
        let renderer = renderer
        _ = TimeText.span(value)
        _ = renderer.time.relative(now.addingTimeInterval(value))
        _ = renderer.stack([.init(widget: "w1", kind: "k", score: value, normalized: value, relevant: true,
                                  until: nil, explanation: "")])
        for date in Self.extremeDates + [now] {
            _ = renderer.timeline(TimelineMethod.Reply(
                widget: "w1", kind: "k", family: "systemSmall", policy: .init(policy: "after", date: date),
                entries: [.init(date: date, relevance: .init(score: value, duration: value), content: .null,
                                current: true)],
                nextReload: date, nextReason: "policy"))
            _ = renderer.budget([.init(
                widget: "w1", kind: "k", tokens: value, capacity: value, nextTokenAt: date, minimumInterval: value,
                floorLiftsAt: date, developerMode: false, budgetedRuns24h: .max, exemptRuns24h: .min,
                runs: [.init(at: date, reason: "policy", outcome: "success", budgeted: true, count: .max)],
                consecutiveFailures: .max, backoffUntil: date, quarantined: false)])
            _ = renderer.status(StatusMethod.Reply(
                version: "x", pid: .max, startedAt: date, status: "", widgets: .max, kinds: .min, running: 0,
                pending: 0, quarantined: 0, nextReload: .init(widget: "w1", kind: "k", at: date, reason: "policy"),
                settings: .init(minimumInterval: value, dailyBudget: value, burstBudget: value, maxConcurrentRuns: .max,
                                coalesceWindow: value, developerKinds: []),
                stateDirectory: "", socket: ""))
            _ = renderer.list([WidgetSummary(
                id: "w1", kind: "k", family: "systemSmall", configuration: [:], state: "idle", lastReload: date,
                lastReason: nil, lastOutcome: nil, nextReload: date, nextReason: nil, tokens: value,
                currentEntry: .init(date: date, content: .null))])
        }
    }

    @Test func listJSONIsAnArrayOfTheContractShape() throws {
        let text = JSONOutput.document([
            WidgetSummary(id: "w1", kind: "clock", family: "small", configuration: [:], state: "idle", tokens: 1),
        ])
        let parsed = try #require(JSONValue(jsonText: text))
        guard case .array(let items) = parsed, case .object(let item)? = items.first else {
            Issue.record("not an array of objects: \(text)")
            return
        }
        #expect(Set(item.keys) == [
            "id", "kind", "family", "configuration", "state", "lastReload", "lastReason", "lastOutcome",
            "nextReload", "nextReason", "tokens", "currentEntry",
        ])
    }
}
