import Testing
import WidgetProtocol
@testable import WidgetSchedulerRuntime

@Suite struct ConnectionDeadlinesTests {
    private let limits = ControlLimits(messageTimeout: 30, idleTimeout: 60)

    @Test(arguments: [
        // (last traffic, message started, call open) -> deadline
        (100.0, Double?.none, false, Double?.some(160), ControlError.TimeoutReason?.some(.idle)),
        (100, nil, true, nil, nil),
        (100, 90, false, 120, .incompleteMessage),
        (100, 90, true, 120, .incompleteMessage),
        (100, 20, false, 50, .incompleteMessage),
        (10, 95, false, 70, .idle),
    ])
    func deadlineIsTheEarlierOfTheMessageAndTheIdleTimeout(
        lastTraffic: Double, messageStarted: Double?, callOpen: Bool, at: Double?,
        reason: ControlError.TimeoutReason?
    ) {
        let activity = ConnectionDeadlines.Activity(lastTraffic: lastTraffic, messageStarted: messageStarted,
                                                    callOpen: callOpen)
        let deadline = ConnectionDeadlines.deadline(of: activity, limits: limits)
        #expect(deadline?.at == at)
        #expect(deadline?.reason == reason)
    }

    @Test func earliestIsTheFirstDeadlineAndLaterOnesDoNotMoveIt() {
        var deadlines = ConnectionDeadlines()
        #expect(deadlines.earliest == nil)
        deadlines.update(id: 1, at: 160)
        deadlines.update(id: 2, at: 130)
        #expect(deadlines.earliest == 130)
        // Traffic moved connection 2 later: its entry stays, and is checked when due.
        deadlines.update(id: 2, at: 190)
        #expect(deadlines.earliest == 130)
        #expect(deadlines.entryCount == 2)
    }

    @Test func anEarlierDeadlineGetsItsOwnEntry() {
        var deadlines = ConnectionDeadlines()
        deadlines.update(id: 1, at: 160)
        deadlines.update(id: 1, at: 120)
        #expect(deadlines.earliest == 120)
        #expect(deadlines.takeDue(now: 125) == [1])
        // The superseded entry at 160 is stale once the connection was taken: it is skipped.
        #expect(deadlines.takeDue(now: 200) == [])
    }

    @Test func dueConnectionsAreTakenOnceInDeadlineOrder() {
        var deadlines = ConnectionDeadlines()
        deadlines.update(id: 3, at: 50)
        deadlines.update(id: 1, at: 10)
        deadlines.update(id: 2, at: 20)
        #expect(deadlines.takeDue(now: 5) == [])
        #expect(deadlines.takeDue(now: 20) == [1, 2])
        #expect(deadlines.takeDue(now: 20) == [])
        #expect(deadlines.earliest == 50)
        // Given its deadline again after the check, a connection is due again then.
        deadlines.update(id: 1, at: 70)
        #expect(deadlines.takeDue(now: 100) == [3, 1])
        #expect(deadlines.earliest == nil)
    }

    @Test func removedConnectionsAreNeverDue() {
        var deadlines = ConnectionDeadlines()
        deadlines.update(id: 1, at: 10)
        deadlines.remove(id: 1)
        #expect(deadlines.takeDue(now: 100) == [])
    }

    @Test func aFloodOfShortConnectionsDoesNotGrowTheHeap() {
        var deadlines = ConnectionDeadlines()
        for id in 0..<10_000 {
            deadlines.update(id: id, at: 60 + Double(id))
            deadlines.remove(id: id)
        }
        deadlines.update(id: 99_999, at: 1)
        #expect(deadlines.entryCount <= 2 * 1 + 64 + 1)
        #expect(deadlines.takeDue(now: 100_000) == [99_999])
    }
}
