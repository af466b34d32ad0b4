import Testing
@testable import WidgetSchedulerRuntime

@Suite struct ControlLimitsTests {
    @Test func defaultsAreUsable() {
        #expect(ControlLimits().problems().isEmpty)
    }

    @Test(arguments: [
        (ControlLimits(maximumConnections: 0), "max-connections"),
        (ControlLimits(maximumConnectionsPerUser: 0), "max-connections-per-user"),
        (ControlLimits(maximumConnections: 10, adminReservedConnections: 10), "admin-reserved-connections"),
        (ControlLimits(adminReservedConnections: -1), "admin-reserved-connections"),
        (ControlLimits(messageTimeout: 0), "message-timeout"),
        (ControlLimits(messageTimeout: .infinity), "message-timeout"),
        (ControlLimits(idleTimeout: -5), "idle-timeout"),
        (ControlLimits(idleTimeout: 1e300), "idle-timeout"),
        (ControlLimits(bufferBudget: 1000), "buffer-budget"),
        (ControlLimits(bufferBudget: 1 << 20, watchBacklogLimit: 2 << 20), "watch-backlog-limit"),
        (ControlLimits(watchBacklogLimit: 1024), "watch-backlog-limit"),
    ])
    func eachBadValueIsNamedByItsKey(limits: ControlLimits, key: String) {
        #expect(limits.problems().first?.hasPrefix(key + " ") == true, "\(limits.problems())")
    }

    @Test func connectionsAreKeptBelowTheDescriptorLimit() throws {
        let limits = ControlLimits(maximumConnections: 4096, adminReservedConnections: 32)
        #expect(limits.fitting(descriptorLimit: 65_536, spare: 100) == nil)
        let fitted = try #require(limits.fitting(descriptorLimit: 1024, spare: 100))
        #expect(fitted.maximumConnections == 924)
        #expect(fitted.adminReservedConnections == 32)
        let tiny = try #require(limits.fitting(descriptorLimit: 110, spare: 100))
        #expect(tiny.maximumConnections == 10)
        #expect(tiny.adminReservedConnections == 5)
        #expect(tiny.problems().isEmpty)
    }
}
