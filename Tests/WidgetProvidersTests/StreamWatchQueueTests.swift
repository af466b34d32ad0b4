import Testing
@testable import WidgetProviders

/// When the runner's one stream-watch timer must move, and which runs it finds due.
@Suite("Stream-watch queue")
struct StreamWatchQueueTests {
    struct ArmingCase: CustomTestStringConvertible, Sendable {
        var name: String
        /// Runs added in order, each with its deadline; the timer is armed each time `add` says so.
        var added: [(tag: UInt64, deadline: Double)]
        /// What `add` answered for each.
        var rearms: [Bool]
        var testDescription: String { name }
    }

    static let armingCases: [ArmingCase] = [
        ArmingCase(name: "the first run arms the timer", added: [(1, 0.025)], rearms: [true]),
        ArmingCase(name: "later runs of the same delay leave it alone",
                   added: [(1, 0.025), (2, 0.026), (3, 0.030)], rearms: [true, false, false]),
        ArmingCase(name: "an equal deadline leaves it alone", added: [(1, 0.025), (2, 0.025)], rearms: [true, false]),
        ArmingCase(name: "an earlier deadline moves it", added: [(1, 20), (2, 0.05), (3, 1)],
                   rearms: [true, true, false]),
    ]

    @Test(arguments: armingCases)
    func theTimerMovesOnlyForAnEarlierDeadline(_ example: ArmingCase) {
        var queue = StreamWatchQueue()
        var answers: [Bool] = []
        for (tag, deadline) in example.added {
            let rearm = queue.add(tag, dueAt: deadline)
            answers.append(rearm)
            if rearm { queue.armed(for: deadline) }
        }
        #expect(answers == example.rearms)
        #expect(queue.armedDeadline == example.added.map(\.deadline).min())
    }

    @Test func aFiredTimerIsArmedAgainByTheNextRun() {
        var queue = StreamWatchQueue()
        let first = queue.add(1, dueAt: 1)
        queue.armed(for: 1)
        queue.disarmed()
        let second = queue.add(2, dueAt: 5)
        #expect(first && second)
    }

    @Test func dueRunsComeOutEarliestFirstAndTheRestStay() {
        var queue = StreamWatchQueue()
        for (tag, deadline) in [(UInt64(3), 3.0), (1, 1.0), (4, 4.0), (2, 2.0), (5, 2.0)] {
            _ = queue.add(tag, dueAt: deadline)
        }
        let dueEarly = queue.takeDue(at: 0.5)
        let dueAtTwo = queue.takeDue(at: 2)
        #expect(dueEarly == [])
        #expect(dueAtTwo == [1, 2, 5])
        #expect(queue.count == 2)
        let rest = queue.takeAll()
        let nextAfterAll = queue.earliestLive { _ in true }
        #expect(rest == [3, 4])
        #expect(nextAfterAll == nil)
    }

    @Test func theTimerWaitsForTheEarliestRunStillGoing() {
        var queue = StreamWatchQueue()
        for tag in UInt64(1)...5 {
            _ = queue.add(tag, dueAt: Double(tag))
        }
        let ended: Set<UInt64> = [1, 2, 4]
        let next = queue.earliestLive { !ended.contains($0) }
        #expect(next == 3)
        // Ended runs in front were dropped; one behind a live run waits its turn.
        #expect(queue.count == 3)
        let all = queue.takeAll()
        #expect(all == [3, 4, 5])
    }

    @Test func removingAllLeavesNothingDueAndNoTimerArmed() {
        var queue = StreamWatchQueue()
        _ = queue.add(1, dueAt: 1)
        queue.armed(for: 1)
        _ = queue.add(2, dueAt: 2)
        queue.removeAll()
        let due = queue.takeDue(at: .infinity)
        #expect(due == [])
        #expect(queue.armedDeadline == .infinity)
        // The next run arms a timer again.
        let rearms = queue.add(3, dueAt: 5)
        let all = queue.takeAll()
        #expect(rearms)
        #expect(all == [3])
        #expect(queue.count == 0)
    }
}
