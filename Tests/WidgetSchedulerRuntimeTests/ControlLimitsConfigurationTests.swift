import Testing
@testable import WidgetSchedulerRuntime

@Suite struct ControlLimitsConfigurationTests {
    @Test func everyKeyIsRead() throws {
        let text = """
            max-connections = 512
            max-connections-per-user = 8
            admin-reserved-connections = 4
            message-timeout = 2.5
            idle-timeout = 90
            buffer-budget = "16M"
            watch-backlog-limit = 262144
            minimum-interval = 60
            """
        let limits = try DaemonConfiguration.parseControlLimits(text, file: "/etc/x.toml")
        #expect(limits == ControlLimits(maximumConnections: 512, maximumConnectionsPerUser: 8,
                                        adminReservedConnections: 4, messageTimeout: 2.5, idleTimeout: 90,
                                        bufferBudget: 16 << 20, watchBacklogLimit: 256 << 10))
        // The scheduling settings of the same file accept the connection keys as known.
        #expect(try DaemonConfiguration.parse(text, file: "/etc/x.toml", defaults: .init()).minimumInterval == 60)
    }

    @Test func anEmptyFileGivesTheDefaults() throws {
        #expect(try DaemonConfiguration.parseControlLimits("", file: "/etc/x.toml") == ControlLimits())
    }

    @Test(arguments: [
        ("max-connections = \"many\"", "max-connections", "expected an integer, found string"),
        ("message-timeout = true", "message-timeout", "expected a number of seconds, found boolean"),
        ("buffer-budget = \"64Q\"", "buffer-budget",
         #"expected a size such as "64M" or a number of bytes, found "64Q""#),
        ("idle-timeout = 0", "idle-timeout", "must be a number of seconds > 0 and at most 86400"),
        ("watch-backlog-limit = \"128M\"", "watch-backlog-limit",
         "must be a size of at least 64K and at most buffer-budget"),
    ])
    func aBadValueIsNamedWithTheFileAndTheKey(text: String, key: String, message: String) {
        do {
            _ = try DaemonConfiguration.parseControlLimits(text, file: "/etc/x.toml")
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.description == "/etc/x.toml: \"\(key)\": \(message)")
        }
    }
}
