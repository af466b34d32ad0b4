import Testing
import WidgetSchedulerCore

/// Callers' provider requests (`Options`, an `Add`'s defaults) share the slots of widget runs.
@Suite struct SchedulerProviderRequestTests {
    static func key(_ question: String) -> ProviderRequestKey { ProviderRequestKey(kind: "k", question: question) }

    static func admissions(_ actions: [SchedulerAction]) -> [Int: ProviderRequests.Admission] {
        var result: [Int: ProviderRequests.Admission] = [:]
        for case .providerRequestDecided(let caller, _, let admission) in actions { result[caller] = admission }
        return result
    }

    static func requestStarts(_ actions: [SchedulerAction]) -> [ProviderRequestKey] {
        actions.compactMap { if case .startProviderRequest(let key) = $0 { key } else { nil } }
    }

    /// What a handling started, callers' requests as `?question` and widget runs by id, in order.
    static func started(_ actions: [SchedulerAction]) -> [String] {
        actions.compactMap {
            switch $0 {
            case .startProviderRequest(let key): "?" + key.question
            case .startRun(let widget, _): widget
            default: nil
            }
        }
    }

    @Test func requestsHoldHalfTheSlotsAndWidgetRunsKeepTheRest() {
        var harness = SchedulerHarness(SchedulerSettings(maxConcurrentRuns: 4))
        let first = harness.at(0, .providerRequested(Self.key("a"), uid: 1000, caller: 1))
        #expect(Self.admissions(first) == [1: .start])
        #expect(Self.requestStarts(first) == [Self.key("a")])
        _ = harness.at(0, .providerRequested(Self.key("b"), uid: 1000, caller: 2))
        let third = harness.at(0, .providerRequested(Self.key("c"), uid: 1000, caller: 3))
        #expect(Self.admissions(third) == [3: .queued], "two of the four slots are the callers' at most")
        #expect(harness.scheduler.slotsInUse == 2)
        // The other two are the widgets', however many questions wait.
        #expect(Self.started(harness.at(1, .widgetAdded(id: "w1", kind: "k"))) == ["w1"])
        #expect(Self.started(harness.at(1, .widgetAdded(id: "w2", kind: "k"))) == ["w2"])
        #expect(Self.started(harness.at(1, .widgetAdded(id: "w3", kind: "k"))).isEmpty)
        #expect(harness.scheduler.plannedRun(for: "w3", at: harness.now)?.because == .concurrency)
        // A caller's slot goes back to a caller first, then the next free one to the waiting widget.
        #expect(Self.started(harness.at(2, .providerRequestFinished(Self.key("a")))) == ["?c"])
        #expect(Self.started(harness.succeed("w1", at: 3)) == ["w3"])
        #expect(harness.scheduler.slotsInUse == 4)
    }

    @Test func withOneSlotCallersAndWidgetRunsTakeTurns() {
        var harness = SchedulerHarness(SchedulerSettings(maxConcurrentRuns: 1))
        #expect(Self.started(harness.at(0, .widgetAdded(id: "w1", kind: "k"))) == ["w1"])
        _ = harness.at(0, .widgetAdded(id: "w2", kind: "k"))
        _ = harness.at(0, .widgetAdded(id: "w3", kind: "k"))
        let asked = harness.at(1, .providerRequested(Self.key("a"), uid: nil, caller: 1))
        #expect(Self.admissions(asked) == [1: .queued])
        _ = harness.at(1, .providerRequested(Self.key("b"), uid: nil, caller: 2))
        _ = harness.at(1, .providerRequested(Self.key("c"), uid: nil, caller: 3))
        // Two widgets and three questions wait: each slot that frees goes to the other side than the last.
        var order: [String] = []
        order += Self.started(harness.succeed("w1", at: 2))
        order += Self.started(harness.at(3, .providerRequestFinished(Self.key("a"))))
        order += Self.started(harness.succeed("w2", at: 4))
        order += Self.started(harness.at(5, .providerRequestFinished(Self.key("b"))))
        order += Self.started(harness.succeed("w3", at: 6))
        #expect(order == ["?a", "w2", "?b", "w3", "?c"])
    }

    @Test func aFloodOfQuestionsNeverStarvesTheWidgets() {
        var harness = SchedulerHarness(SchedulerSettings(maxConcurrentRuns: 2, optionsRate: 1_000))
        for id in ["w1", "w2", "w3"] { _ = harness.at(0, .widgetAdded(id: id, kind: "k")) }
        for caller in 1...100 {
            _ = harness.at(0, .providerRequested(Self.key("q\(caller)"), uid: 1000, caller: caller))
        }
        // Whichever ends first, the callers never hold more than one of the two slots: w3 starts when w1 ends.
        #expect(harness.scheduler.requests.runningCount == 0, "both slots went to w1 and w2 before anyone asked")
        #expect(Self.started(harness.succeed("w1", at: 1)) == ["?q1"])
        #expect(Self.started(harness.succeed("w2", at: 2)) == ["w3"])
        #expect(Self.started(harness.at(3, .providerRequestFinished(Self.key("q1")))) == ["?q2"])
        #expect(harness.scheduler.requests.queue.count == 98)
    }

    @Test func sixtyIdenticalRequestsAreOneRunAndSixtyDistinctOnesNeverPassTheSlots() {
        var harness = SchedulerHarness(SchedulerSettings(maxConcurrentRuns: 2, optionsRate: 1_000))
        var starts = 0
        for caller in 1...60 {
            starts += Self.requestStarts(harness.at(0, .providerRequested(Self.key("same"), uid: 1000,
                                                                          caller: caller))).count
        }
        #expect(starts == 1)
        for caller in 61...120 {
            _ = harness.at(0, .providerRequested(Self.key("q\(caller)"), uid: 1000, caller: caller))
            #expect(harness.scheduler.slotsInUse <= 2)
            #expect(harness.scheduler.requests.runningCount == 1)
        }
        #expect(harness.scheduler.requests.queue.count == 60)
    }

    @Test func aUidPastItsRateIsRefusedWithWhenToAskAgain() {
        var harness = SchedulerHarness(SchedulerSettings(maxConcurrentRuns: 8, optionsRate: 2))
        _ = harness.at(0, .providerRequested(Self.key("1"), uid: 1000, caller: 1))
        _ = harness.at(0, .providerRequested(Self.key("2"), uid: 1000, caller: 2))
        let refused = harness.at(15, .providerRequested(Self.key("3"), uid: 1000, caller: 3))
        #expect(Self.admissions(refused) == [3: .refused(retryAfter: 15)])
        #expect(Self.requestStarts(refused).isEmpty)
        #expect(harness.scheduler.slotsInUse == 2)
    }
}
