import Foundation
import Testing
import WidgetSchedulerCore

/// Reload requests at explicit instants: every request gets ran, coalesced or deferred, with the right time and
/// reason. Widget "w" is added at 0 and its initial run ends at 1 with a `never` timeline unless a test says otherwise.
struct SchedulerRequestTests {
    static func added(_ settings: SchedulerSettings = SchedulerSettings(maxConcurrentRuns: 4)) -> SchedulerHarness {
        var harness = SchedulerHarness(settings)
        harness.at(0, .widgetAdded(id: "w", kind: "weather"))
        harness.succeed("w", at: 1)
        return harness
    }

    @Test func addingAWidgetStartsItsInitialRunAtOnce() {
        var harness = SchedulerHarness()
        let actions = harness.at(10, .widgetAdded(id: "w", kind: "weather"))
        #expect(SchedulerHarness.starts(actions) == ["w": .initial])
    }

    @Test func aReloadAfterTheFloorRunsNow() {
        var harness = Self.added()
        #expect(harness.reload(300, .kind("weather")) == ["w": .ran(at: 300)])
    }

    @Test func aReloadInsideTheFloorIsDeferredUntilTheFloorLifts() {
        var harness = Self.added()
        #expect(harness.reload(100, .kind("weather")) == ["w": .deferred(at: 300, because: .floor)])
        let actions = harness.tick(300)
        #expect(SchedulerHarness.starts(actions) == ["w": .explicit])
    }

    @Test func aSecondReloadWhileOneWaitsIsCoalescedIntoIt() {
        var harness = Self.added()
        _ = harness.reload(100, .kind("weather"))
        #expect(harness.reload(200, .kind("weather")) == ["w": .coalesced(at: 300)])
        #expect(SchedulerHarness.starts(harness.tick(300)).count == 1)
        #expect(SchedulerHarness.starts(harness.tick(400)).isEmpty)
    }

    @Test func reloadsDuringARunAreCoalescedIntoOneFollowUp() {
        var harness = Self.added()
        _ = harness.reload(300, .kind("weather"))
        #expect(harness.reload(301, .kind("weather")) == ["w": .coalesced(at: 600)])
        #expect(harness.reload(302, .kind("weather")) == ["w": .coalesced(at: 600)])
        let finished = harness.succeed("w", at: 310)
        #expect(SchedulerHarness.starts(finished).isEmpty)
        #expect(SchedulerHarness.starts(harness.tick(600)) == ["w": .explicit])
        harness.succeed("w", at: 601)
        #expect(SchedulerHarness.starts(harness.tick(5_000)).isEmpty)
    }

    @Test func aRepeatedRequestForAWidgetWhoseRunIsPlannedChangesNothing() {
        var harness = Self.added()
        let first = harness.at(100, .reloadRequested(.kind("weather"), foreground: false, request: 1))
        #expect(Self.changedPlan(first) == ["w": true])
        #expect(first.contains(.stateChanged(widget: "w")))
        let repeated = harness.at(200, .reloadRequested(.kind("weather"), foreground: false, request: 2))
        #expect(Self.changedPlan(repeated) == ["w": false], "joined the deferred run: nothing to persist or log")
        #expect(!repeated.contains(.stateChanged(widget: "w")))
        let foreground = harness.at(210, .reloadRequested(.kind("weather"), foreground: true, request: 3))
        #expect(Self.changedPlan(foreground) == ["w": true], "a foreground request replaces the plan and runs")
    }

    @Test func aRepeatedRequestDuringARunChangesNothingOnceTheFollowUpIsPlanned() {
        var harness = Self.added()
        _ = harness.reload(300, .kind("weather"))
        let followUp = harness.at(301, .reloadRequested(.kind("weather"), foreground: false, request: 1))
        #expect(Self.changedPlan(followUp) == ["w": true], "the first request during a run plans the follow-up")
        let repeated = harness.at(302, .reloadRequested(.kind("weather"), foreground: false, request: 2))
        #expect(Self.changedPlan(repeated) == ["w": false])
    }

    @Test func aRepeatedRequestKeepsAWidgetsPlaceInTheSlotQueue() {
        var harness = SchedulerHarness(SchedulerSettings(maxConcurrentRuns: 1))
        for id in ["a", "b", "c"] {
            harness.at(0, .widgetAdded(id: id, kind: "k"))
        }
        harness.succeed("a", at: 1)
        harness.succeed("b", at: 2)
        harness.succeed("c", at: 3)
        harness.at(400, .widgetAdded(id: "busy", kind: "other"))
        _ = harness.reload(401, .widgets(["b"]))
        _ = harness.reload(401, .widgets(["c"]))
        #expect(harness.reload(402, .widgets(["b"])) == ["b": .deferred(at: 402, because: .concurrency)],
                "waiting for a slot: the slot holds it back, from now")
        #expect(SchedulerHarness.starts(harness.succeed("busy", at: 403)) == ["b": .explicit],
                "b asked first and asking again does not send it behind c")
    }

    static func changedPlan(_ actions: [SchedulerAction]) -> [String: Bool] {
        var changed: [String: Bool] = [:]
        for case .decided(let decided) in actions { changed[decided.widget] = decided.changedPlan }
        return changed
    }

    @Test func aForegroundReloadIgnoresTheFloorAndSpendsNoToken() {
        var harness = Self.added()
        let before = harness.scheduler.tokens(of: "w", at: harness.now)
        #expect(harness.reload(10, .kind("weather"), foreground: true) == ["w": .ran(at: 10)])
        #expect(harness.scheduler.tokens(of: "w", at: harness.now) == before)
    }

    @Test func aForegroundReloadTakesOverAWaitingBudgetedRun() {
        var harness = Self.added()
        _ = harness.reload(100, .kind("weather"))
        #expect(harness.reload(110, .kind("weather"), foreground: true) == ["w": .ran(at: 110)])
        harness.succeed("w", at: 111)
        #expect(SchedulerHarness.starts(harness.tick(300)).isEmpty)
    }

    @Test func aConfigurationChangeRunsAtOnceEvenInsideTheFloor() {
        var harness = Self.added()
        let actions = harness.at(5, .configurationChanged(id: "w", request: 7))
        #expect(SchedulerHarness.decisions(actions) == ["w": .ran(at: 5)])
        #expect(SchedulerHarness.starts(actions) == ["w": .configuration])
    }

    @Test func anEmptyBucketDefersUntilTheNextToken() {
        var harness = Self.added(SchedulerSettings(burstBudget: 2, maxConcurrentRuns: 4))
        #expect(harness.reload(300, .all) == ["w": .ran(at: 300)])
        harness.succeed("w", at: 301)
        #expect(harness.reload(600, .all) == ["w": .ran(at: 600)])
        harness.succeed("w", at: 601)
        // 2 → 1 at 300; 1.25 → 0.25 at 600; 0.5 at 900, so the next whole token comes 600 s later.
        #expect(harness.reload(900, .all) == ["w": .deferred(at: 1_500, because: .budget)])
    }

    @Test func aBudgetedRunThatWaitsForATokenIsAnnouncedOnce() {
        var harness = Self.added(SchedulerSettings(burstBudget: 1, maxConcurrentRuns: 4))
        _ = harness.reload(300, .all)
        // The atEnd policy is due at once; the floor lifts at 600, the next token comes at 1 500.
        let actions = harness.succeed("w", at: 301, entries: [0], policy: .atEnd)
        let notices = actions.filter { if case .budgetExhausted = $0 { return true } else { return false } }
        #expect(notices == [.budgetExhausted(widget: "w", until: 1_500)])
        for t in [601.0, 700, 1_000] {
            #expect(harness.tick(t).allSatisfy { if case .budgetExhausted = $0 { return false } else { return true } })
        }
        #expect(SchedulerHarness.starts(harness.tick(1_500)) == ["w": .policy])
    }

    @Test func theConcurrencyLimitDefersRunsAndStartsThemWhenASlotFrees() {
        var harness = SchedulerHarness(SchedulerSettings(maxConcurrentRuns: 1))
        harness.at(0, .widgetAdded(id: "a", kind: "k"))
        let second = harness.at(0, .widgetAdded(id: "b", kind: "k"))
        #expect(SchedulerHarness.starts(second).isEmpty)
        let finished = harness.succeed("a", at: 2)
        #expect(SchedulerHarness.starts(finished) == ["b": .initial])
        harness.succeed("b", at: 3)
        let decisions = harness.reload(400, .kind("k"))
        #expect(decisions == ["a": .ran(at: 400), "b": .deferred(at: 400, because: .concurrency)])
    }

    @Test func exemptRunsGetTheNextFreeSlotBeforeBudgetedOnes() {
        var harness = SchedulerHarness(SchedulerSettings(maxConcurrentRuns: 1))
        harness.at(0, .widgetAdded(id: "a", kind: "k"))
        harness.succeed("a", at: 1)
        harness.at(0, .widgetAdded(id: "b", kind: "k"))
        harness.succeed("b", at: 1)
        harness.at(2, .widgetAdded(id: "busy", kind: "other"))
        _ = harness.reload(400, .widgets(["a"]))
        _ = harness.reload(400, .widgets(["b"]), foreground: true)
        #expect(SchedulerHarness.starts(harness.succeed("busy", at: 401)) == ["b": .foreground])
    }

    @Test func everyRequestGetsExactlyOneDecisionPerNamedWidget() {
        var harness = SchedulerHarness()
        for id in ["a", "b", "c"] { harness.at(0, .widgetAdded(id: id, kind: id == "c" ? "other" : "k")) }
        #expect(harness.reload(1, .kind("k")).keys.sorted() == ["a", "b"])
        #expect(harness.reload(2, .all).keys.sorted() == ["a", "b", "c"])
        #expect(harness.reload(3, .widgets(["c", "c", "missing"])).keys.sorted() == ["c"])
    }

    @Test func developerModeLiftsTheFloorAndTheBudgetForItsKindOnly() {
        var harness = Self.added(SchedulerSettings(burstBudget: 1, maxConcurrentRuns: 4, developerKinds: ["weather"]))
        for t in stride(from: 10.0, through: 50, by: 10) {
            #expect(harness.reload(t, .kind("weather")) == ["w": .ran(at: t)])
            harness.succeed("w", at: t + 1)
        }
    }

    @Test func aRemovedWidgetFreesItsSlotAndGetsNoDecision() {
        var harness = SchedulerHarness(SchedulerSettings(maxConcurrentRuns: 1))
        harness.at(0, .widgetAdded(id: "a", kind: "k"))
        harness.at(0, .widgetAdded(id: "b", kind: "k"))
        let actions = harness.at(1, .widgetRemoved(id: "a"))
        #expect(SchedulerHarness.starts(actions) == ["b": .initial])
        #expect(harness.reload(2, .widgets(["a"])).isEmpty)
        #expect(harness.scheduler.runningCount == 1)
    }

    @Test func aWidgetMovedIntoARemovedOnesPlaceKeepsItsTurnForASlotAndItsDeadline() {
        // Removing "b" moves the table's last widget, "d", into its place while "c", then "d", wait for the one slot.
        var harness = SchedulerHarness(SchedulerSettings(maxConcurrentRuns: 1))
        for id in ["a", "b", "c", "d"] { harness.at(0, .widgetAdded(id: id, kind: "k")) }
        harness.at(1, .widgetRemoved(id: "b"))
        #expect(SchedulerHarness.starts(harness.succeed("a", at: 2, entries: [0, 100])) == ["c": .initial])
        #expect(SchedulerHarness.starts(harness.succeed("c", at: 3, entries: [0, 60])) == ["d": .initial])
        harness.succeed("d", at: 4, entries: [0, 50])
        harness.at(5, .widgetRemoved(id: "a"))
        // "c", moved into "a"'s place, keeps its next entry on the deadline queue; "a"'s is gone with it.
        #expect(SchedulerHarness.entries(harness.tick(54)) == ["d": harness.wall(54)])
        #expect(SchedulerHarness.entries(harness.tick(63)) == ["c": harness.wall(63)])
        #expect(harness.tick(102).isEmpty)
        #expect(harness.scheduler.nextWakeup() == nil)
    }

    @Test func aKindRequestAfterAnotherKindsWidgetIsRemovedReachesExactlyItsWidgets() {
        // Removing a widget moves the table's last widget into its place, whatever its kind.
        var harness = SchedulerHarness(SchedulerSettings(maxConcurrentRuns: 8, developerKinds: ["b"]))
        harness.at(0, .widgetAdded(id: "a1", kind: "a"))
        harness.at(0, .widgetAdded(id: "a2", kind: "a"))
        harness.at(0, .widgetAdded(id: "b1", kind: "b"))
        for id in ["a1", "a2", "b1"] { harness.succeed(id, at: 1) }
        #expect(harness.reload(2, .kind("b")) == ["b1": .ran(at: 2)])
        harness.succeed("b1", at: 3)
        harness.at(4, .widgetRemoved(id: "a1"))
        #expect(harness.reload(5, .kind("b")) == ["b1": .ran(at: 5)])
        #expect(harness.reload(6, .kind("a")).keys.sorted() == ["a2"])
        #expect(harness.scheduler.widgets["a2"]?.pending?.reason == .explicit)
    }

    struct DecisionRow: Sendable, CustomTestStringConvertible {
        var name: String
        /// Builds the situation before the request at `at` (widget "w" added at 0, its initial run ended at 1).
        var setUp: @Sendable (inout SchedulerHarness) -> Void
        var at: Double
        var foreground = false
        var expected: Decision
        var testDescription: String { name }
    }

    /// One slot, taken by "busy" (added at 400 and never finished).
    static func slotTaken(_ harness: inout SchedulerHarness) {
        harness.at(400, .widgetAdded(id: "busy", kind: "other"))
    }

    // A decision's time is when the run that serves the request starts; its reason is what holds that run back.
    static let decisionRows: [DecisionRow] = [
        DecisionRow(name: "nothing holds it: ran now", setUp: { _ in }, at: 400, expected: .ran(at: 400)),
        DecisionRow(name: "inside the floor: deferred until it lifts", setUp: { _ in }, at: 100,
                    expected: .deferred(at: 300, because: .floor)),
        DecisionRow(name: "every slot busy: deferred from now for the concurrency limit", setUp: slotTaken,
                    at: 401, expected: .deferred(at: 401, because: .concurrency)),
        DecisionRow(name: "every slot busy, joining a run waiting for one: still the concurrency limit",
                    setUp: { harness in
                        slotTaken(&harness)
                        _ = harness.reload(401, .widgets(["w"]))
                    }, at: 402, expected: .deferred(at: 402, because: .concurrency)),
        DecisionRow(name: "every slot busy, a foreground request: the concurrency limit, not coalesced",
                    setUp: { harness in
                        slotTaken(&harness)
                        _ = harness.reload(401, .widgets(["w"]))
                    }, at: 402, foreground: true, expected: .deferred(at: 402, because: .concurrency)),
        DecisionRow(name: "joining a run waiting for the floor: coalesced at its start",
                    setUp: { harness in _ = harness.reload(100, .widgets(["w"])) }, at: 200,
                    expected: .coalesced(at: 300)),
        DecisionRow(name: "during a run: coalesced into the follow-up after the floor",
                    setUp: { harness in _ = harness.reload(400, .widgets(["w"])) }, at: 401,
                    expected: .coalesced(at: 700)),
        DecisionRow(name: "a foreground request during a run: coalesced, the follow-up starts as the run ends",
                    setUp: { harness in _ = harness.reload(400, .widgets(["w"])) }, at: 401, foreground: true,
                    expected: .coalesced(at: 401)),
    ]

    @Test("a request's decision names when its run starts and what holds it back", arguments: decisionRows)
    func decision(_ row: DecisionRow) {
        var harness = Self.added(SchedulerSettings(maxConcurrentRuns: 1))
        row.setUp(&harness)
        #expect(harness.reload(row.at, .widgets(["w"]), foreground: row.foreground) == ["w": row.expected])
    }
}
