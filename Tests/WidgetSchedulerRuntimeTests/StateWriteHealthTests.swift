import Testing
import WidgetSchedulerRuntime

/// After a failed write: one spell of failures is reported once, retried on a doubling backoff up to a cap, with an
/// attempt at once for a client at most once per interval, and ended by the first success.
struct StateWriteHealthTests {
    @Test func aSpellOfFailuresIsReportedOnceAndRetriedOnADoublingCappedBackoff() throws {
        var health = StateWriteHealth(initialBackoff: 0.5, maximumBackoff: 4, clientAttemptInterval: 1)
        #expect(!health.isDegraded && health.nextAttempt == nil)
        let first = health.failed(at: 10, cause: "disk full")
        #expect(first)
        var attempts: [Double] = []
        var now = 10.0
        for _ in 0..<6 {
            now = try #require(health.nextAttempt)
            attempts.append(now - 10)
            let reported = health.failed(at: now, cause: "disk full")
            #expect(!reported)
        }
        #expect(attempts == [0.5, 1.5, 3.5, 7.5, 11.5, 15.5])
        let failure = try #require(health.failure)
        #expect(failure.since == 10 && failure.attempts == 7 && failure.lastAttempt == 25.5)
    }

    @Test func theFirstSuccessEndsTheSpellAndReturnsIt() throws {
        var health = StateWriteHealth()
        let none = health.succeeded(at: 1)
        #expect(none == nil)
        health.failed(at: 2, cause: "disk full")
        health.failed(at: 3, cause: "I/O error")
        let spell = health.succeeded(at: 4)
        let ended = try #require(spell)
        #expect(ended.since == 2 && ended.attempts == 2 && ended.cause == "I/O error")
        #expect(!health.isDegraded)
        let again = health.failed(at: 5, cause: "disk full")
        #expect(again, "a new spell is reported again")
    }

    @Test("a client may have a write attempted at once, at most once per interval", arguments: [
        (0.5, false), (0.99, false), (1.0, true), (2.5, true),
    ])
    func clientAttempts(after seconds: Double, allowed: Bool) {
        var health = StateWriteHealth(initialBackoff: 8, maximumBackoff: 30, clientAttemptInterval: 1)
        #expect(health.mayAttemptForClient(at: 0))
        health.failed(at: 100, cause: "disk full")
        #expect(health.mayAttemptForClient(at: 100 + seconds) == allowed)
        #expect(health.mayAttemptForClient(at: 108), "the backoff's attempt is always allowed")
    }
}
