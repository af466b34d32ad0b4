import Testing
import WidgetSchedulerCore

struct BackoffTests {
    @Test("the k-th consecutive failure waits min(5 h, 30 s × 2^(k−1))", arguments: [
        (0, 0.0), (1, 30.0), (2, 60.0), (3, 120.0), (4, 240.0), (5, 480.0), (6, 960.0), (7, 1_920.0),
        (8, 3_840.0), (9, 7_680.0), (10, 15_360.0), (11, 18_000.0), (12, 18_000.0), (1_000, 18_000.0),
    ])
    func delay(failures: Int, expected: Double) {
        #expect(Backoff.delay(afterFailures: failures, settings: SchedulerSettings()) == expected)
    }

    @Test func theInitialDelayAndCapAreSettings() {
        let settings = SchedulerSettings(backoffInitial: 10, backoffMaximum: 50)
        #expect(Backoff.delay(afterFailures: 1, settings: settings) == 10)
        #expect(Backoff.delay(afterFailures: 3, settings: settings) == 40)
        #expect(Backoff.delay(afterFailures: 4, settings: settings) == 50)
    }
}
