import Testing
@testable import WidgetHost

/// `LoopSleep` waits on NIO's event loop, as `Task.sleep` would on libdispatch's timers.
@Suite struct LoopSleepTests {
    @Test func aSleepEndsNoSoonerThanItsTime() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        try await LoopSleep.sleep(seconds: 0.05)
        #expect(clock.now - start >= .milliseconds(50))
    }

    @Test func cancellingTheTaskEndsTheSleepWithCancellationError() async {
        let sleeper = Task { try await LoopSleep.sleep(seconds: 3600) }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
    }

    @Test func outsideNumbersAreClampedRatherThanTrapping() async throws {
        try await LoopSleep.sleep(seconds: -5)
        for endless in [Double.nan, .infinity, 1e300] {
            let sleeper = Task { try await LoopSleep.sleep(seconds: endless) }
            sleeper.cancel()
            await #expect(throws: CancellationError.self) { try await sleeper.value }
        }
    }
}
