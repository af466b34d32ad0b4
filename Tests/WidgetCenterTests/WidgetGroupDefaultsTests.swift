import Foundation
import Testing
import WidgetCenter
import WidgetProtocol

private let written = reply(#"{"updatedAt":"2026-01-05T08:00:00Z","decisions":[]}"#)

@Suite struct WidgetGroupDefaultsTests {
    @Test func setWritesTheValueToTheGroup() throws {
        let daemon = try FakeDaemon { _ in written }
        try WidgetGroupDefaults(suiteName: "weather", socketPath: daemon.path).set("Paris", forKey: "location")
        let calls = daemon.finish()
        #expect(calls.map(\.method) == ["io.widgetscheduler.Scheduler.DataSet"])
        #expect(calls[0].parameters == ["group": .string("weather"), "key": .string("location"),
                                        "value": .string("Paris")])
    }

    @Test func settingNilRemovesTheKeyAndRemovingAMissingKeyIsNoError() throws {
        let daemon = try FakeDaemon(connections: 2) { _ in
            errorReply("io.widgetscheduler.Scheduler.UnknownKey", #"{"group":"weather","key":"location"}"#)
        }
        let defaults = WidgetGroupDefaults(suiteName: "weather", socketPath: daemon.path)
        try defaults.set(nil as String?, forKey: "location")
        try defaults.removeObject(forKey: "location")
        #expect(daemon.finish().map(\.method) == Array(repeating: "io.widgetscheduler.Scheduler.DataDelete", count: 2))
    }

    @Test func aReadReturnsTheValueOrNilWhenThereIsNone() throws {
        let daemon = try FakeDaemon(connections: 3) { request in
            request.parameters?["key"] == .string("location")
                ? reply(#"{"key":"location","value":"Oslo","updatedAt":"2026-01-05T08:00:00Z"}"#)
                : errorReply("io.widgetscheduler.Scheduler.UnknownKey", #"{"group":"weather","key":"units"}"#)
        }
        let defaults = WidgetGroupDefaults(suiteName: "weather", socketPath: daemon.path)
        #expect(try defaults.string(forKey: "location") == "Oslo")
        #expect(try defaults.data(forKey: "location") == Data("Oslo".utf8))
        #expect(try defaults.string(forKey: "units") == nil)
        #expect(daemon.finish().map(\.parameters) == [
            ["group": .string("weather"), "key": .string("location")],
            ["group": .string("weather"), "key": .string("location")],
            ["group": .string("weather"), "key": .string("units")],
        ])
    }

    @Test func dictionaryRepresentationHoldsEveryValueByKey() throws {
        let daemon = try FakeDaemon { _ in
            reply(#"{"items":[{"key":"location","value":"Oslo","updatedAt":"2026-01-05T08:00:00Z"},"#
                  + #"{"key":"units","value":"metric","updatedAt":"2026-01-05T08:01:00Z"}]}"#)
        }
        let values = try WidgetGroupDefaults(suiteName: "weather", socketPath: daemon.path).dictionaryRepresentation()
        #expect(values == ["location": "Oslo", "units": "metric"])
        #expect(daemon.finish().map(\.parameters) == [["group": .string("weather")]])
    }

    @Test func aWriteReloadsTheFirstKindWithItAndEachFurtherKindOnce() throws {
        let daemon = try FakeDaemon { request in
            request.method.hasSuffix("DataSet")
                ? reply(#"{"updatedAt":"2026-01-05T08:00:00Z","decisions":[{"widget":"w1","decision":"ran","#
                        + #""at":"2026-01-05T08:00:00Z","because":null}]}"#)
                : reply(#"{"decisions":[{"widget":"w2","decision":"coalesced","at":"2026-01-05T08:00:01Z","#
                        + #""because":null}]}"#)
        }
        let decisions = try WidgetGroupDefaults(suiteName: "weather", socketPath: daemon.path)
            .set(Data("Lyon".utf8), forKey: "location", reloadingKinds: ["weather", "forecast", "weather"])
        #expect(decisions.map(\.widgetID) == ["w1", "w2"])
        #expect(decisions.map(\.outcome) == [.ran, .coalesced])
        let calls = daemon.finish()
        #expect(calls.map(\.member) == ["DataSet", "Reload"])
        #expect(calls[0].parameters?["reloadKind"] == .string("weather"))
        #expect(calls[0].parameters?["value"] == .string("Lyon"))
        #expect(calls[1].parameters == ["kind": .string("forecast")])
    }

    @Test func dataThatIsNotUTF8IsRefusedBeforeAnythingIsSent() {
        // Nothing listens here: reaching the socket would throw daemonNotRunning instead.
        let defaults = WidgetGroupDefaults(suiteName: "weather", socketPath: "/tmp/no-such-dir-\(getpid())/socket")
        #expect(throws: WidgetCenterError.invalidValue(
            "a group's values are text, and these 2 bytes are not UTF-8: base64-encode binary data")) {
            try defaults.set(Data([0xff, 0xfe]), forKey: "image")
        }
    }

    @Test func aRefusedWriteCarriesTheDaemonsReason() throws {
        let daemon = try FakeDaemon { _ in
            errorReply("io.widgetscheduler.Scheduler.InvalidParameter",
                       #"{"parameter":"key","reason":"must be 1 to 128 "#
                       + #"of A-Z a-z 0-9 . _ - and not start with a dot; got \"../x\""}"#)
        }
        #expect(throws: WidgetCenterError.invalidParameter(
            parameter: "key", reason: #"must be 1 to 128 of A-Z a-z 0-9 . _ - and not start with a dot; got "../x""#)) {
            try WidgetGroupDefaults(suiteName: "weather", socketPath: daemon.path).set("v", forKey: "../x")
        }
        _ = daemon.finish()
    }
}
