import Testing
import WidgetProtocol

@Suite struct ControlErrorTests {
    @Test(arguments: [
        (ControlError.tooManyConnections(limit: 4096),
         "refused: the daemon already serves 4096 connections (max-connections)"),
        (.tooManyConnections(limit: 64, uid: 1000),
         "refused: uid 1000 already has 64 connections to the daemon open (max-connections-per-user)"),
        (.tooManyConnections(limit: 4064, reserved: 32),
         "refused: the daemon already serves 4064 connections; the 32 left are kept for root and the admin group "
            + "(admin-reserved-connections)"),
        (.connectionTimedOut(.incompleteMessage, seconds: 30),
         "closed by the daemon: a message stayed incomplete for 30 s (message-timeout)"),
        (.connectionTimedOut(.idle, seconds: 0.5), "closed by the daemon: no call for 0.5 s (idle-timeout)"),
        (.bufferFull(.streamBacklog, limit: 4_194_304),
         "dropped by the daemon: more than 4194304 bytes of replies waited unread (watch-backlog-limit)"),
        (.bufferFull(.daemonBudget, limit: 67_108_864),
         "dropped by the daemon: its buffers passed 67108864 bytes (buffer-budget), and this connection held more "
            + "than its share"),
        (.rateLimited(method: "Options", uid: 1000, perMinute: 30, retryAfter: 0.41),
         "refused: uid 1000 asked Options for more than 30 provider runs a minute (options-rate); ask again in 0.5 s"),
    ])
    func limitErrorsSayWhichLimitInOneLine(error: ControlError, message: String) {
        #expect(error.message == message)
    }

    @Test func theNewErrorsAreNamedInTheInterface() {
        for name in [ControlError.Name.connectionTimedOut, ControlError.Name.bufferFull] {
            #expect(name.hasPrefix(ControlInterface.name + "."))
        }
        #expect(ControlError.connectionTimedOut(.idle, seconds: 60).parameters
                == ["reason": .string("idle"), "seconds": .integer(60)])
        #expect(ControlError.connectionTimedOut(.idle, seconds: 0.5).parameters["seconds"] == .number(0.5))
        #expect(ControlError.rateLimited(method: "Options", uid: 7, perMinute: 1.5, retryAfter: 2.01).parameters
                == ["method": .string("Options"), "uid": .integer(7), "perMinute": .number(1.5),
                    "retryAfter": .number(2.1)])
    }

    @Test func aShortNameIsEchoedWhole() {
        #expect(ControlError.unknownKind("weather").parameters["kind"] == .string("weather"))
    }

    @Test(arguments: [
        ControlError.unknownKind(String(repeating: "k", count: 1 << 20)),
        .unknownWidget(String(repeating: "w", count: 1 << 20)),
        .unknownKey(group: String(repeating: "g", count: 1 << 20), key: "k"),
        .invalidParameter(String(repeating: "p", count: 1 << 20), reason: "no such parameter"),
        .methodNotFound(String(repeating: "m", count: 1 << 20)),
        .interfaceNotFound(String(repeating: "i", count: 1 << 20)),
        .invalidParameter(String(repeating: "s", count: 1 << 20)),
    ])
    func anOversizedNameIsEchoedAsAShortPrefix(error: ControlError) {
        #expect(error.message.utf8.count < 300, "\(error.message.prefix(300))")
        #expect(error.message.contains("… (1048576 bytes)"))
    }

    @Test func thePrefixKeepsWholeCharacters() {
        let name = String(repeating: "é", count: 100)
        let echoed = ControlError.echoed(name)
        #expect(echoed.hasPrefix(String(repeating: "é", count: ControlError.echoedPrefixLength) + "…"))
        #expect(echoed.hasSuffix("(200 bytes)"))
    }
}
