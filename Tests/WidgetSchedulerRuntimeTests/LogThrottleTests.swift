import Testing
@testable import WidgetSchedulerRuntime

@Suite struct LogThrottleTests {
    @Test func oneLinePerIntervalCountingWhatItLeftOut() {
        var throttle = LogThrottle(interval: 10)
        #expect(throttle.admit(at: 100) == 0)
        #expect(throttle.admit(at: 101) == nil)
        #expect(throttle.admit(at: 109.9) == nil)
        #expect(throttle.admit(at: 110) == 2)
        #expect(throttle.admit(at: 125) == 0)
    }
}
