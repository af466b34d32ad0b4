import Foundation
import Testing
import WidgetCenter
import WidgetProtocol

private let decisionsReply = reply(#"{"decisions":["#
    + #"{"widget":"w1","decision":"ran","at":"2026-01-05T08:00:00Z","because":null},"#
    + #"{"widget":"w2","decision":"coalesced","at":"2026-01-05T08:00:30Z","because":null},"#
    + #"{"widget":"w3","decision":"deferred","at":"2026-01-05T08:05:00Z","because":"floor"},"#
    + #"{"widget":"w4","decision":"deferred","at":"2026-01-05T11:00:00Z","because":"budget"}]}"#)

private func date(_ text: String) -> Date {
    try! Date(text, strategy: .iso8601)
}

@Suite struct WidgetCenterTests {
    @Test func reloadTimelinesOfKindSendsTheKindAndReturnsEachWidgetsDecision() throws {
        let daemon = try FakeDaemon { _ in decisionsReply }
        let decisions = try WidgetCenter(socketPath: daemon.path).reloadTimelines(ofKind: "weather")
        let calls = daemon.finish()
        #expect(calls.map(\.method) == ["io.widgetscheduler.Scheduler.Reload"])
        #expect(calls[0].parameters == ["kind": .string("weather")])
        #expect(decisions.map(\.widgetID) == ["w1", "w2", "w3", "w4"])
        #expect(decisions.map(\.outcome) == [
            .ran, .coalesced,
            .deferred(until: date("2026-01-05T08:05:00Z"), because: .floor),
            .deferred(until: date("2026-01-05T11:00:00Z"), because: .budget),
        ])
        #expect(decisions[2].description == "w3: deferred until 2026-01-05T08:05:00Z (floor)")
        #expect(decisions[0].description == "w1: ran at 2026-01-05T08:00:00Z")
        #expect(decisions[1].description == "w2: coalesced into the run at 2026-01-05T08:00:30Z")
    }

    @Test func foregroundReloadAsksForABudgetExemptRun() throws {
        let daemon = try FakeDaemon(connections: 2) { _ in reply(#"{"decisions":[]}"#) }
        let center = WidgetCenter(socketPath: daemon.path)
        try center.reloadTimelines(ofKind: "weather", foreground: true)
        try center.reloadAllTimelines(foreground: true)
        let calls = daemon.finish()
        #expect(calls.map(\.parameters) == [
            ["kind": .string("weather"), "foreground": .bool(true)], ["all": .bool(true), "foreground": .bool(true)],
        ])
    }

    @Test func reloadAllTimelinesAsksForEveryWidget() throws {
        let daemon = try FakeDaemon { _ in decisionsReply }
        #expect(try WidgetCenter(socketPath: daemon.path).reloadAllTimelines().count == 4)
        #expect(daemon.finish().map(\.parameters) == [["all": .bool(true)]])
    }

    @Test func aDeferralWithoutAKnownReasonIsAnUnreadableReplyNotAGuess() throws {
        let daemon = try FakeDaemon { _ in
            reply(#"{"decisions":[{"widget":"w1","decision":"deferred","at":"2026-01-05T08:05:00Z","because":null}]}"#)
        }
        #expect(throws: WidgetCenterError.connectionFailed(
            "unexpected reply from the daemon: w1 deferred without a known reason (none)")) {
            try WidgetCenter(socketPath: daemon.path).reloadTimelines(ofKind: "weather")
        }
        _ = daemon.finish()
    }

    @Test func currentConfigurationsReturnsEachPlacedWidget() async throws {
        let widget = #"{"id":"w1","kind":"weather","family":"systemSmall","configuration":{"location":"Oslo"},"#
            + #""state":"idle","lastReload":null,"lastReason":null,"lastOutcome":null,"nextReload":null,"#
            + #""nextReason":null,"tokens":40,"currentEntry":null}"#
        let daemon = try FakeDaemon { _ in reply(#"{"widgets":[\#(widget)]}"#) }
        let widgets = try await WidgetCenter(socketPath: daemon.path).currentConfigurations()
        #expect(widgets == [WidgetInfo(id: "w1", kind: "weather", family: "systemSmall",
                                       configuration: ["location": .string("Oslo")])])
        #expect(daemon.finish().map(\.method) == ["io.widgetscheduler.Scheduler.List"])
    }

    @Test func getCurrentConfigurationsHandsItsCompletionTheFailure() async throws {
        let daemon = try FakeDaemon { _ in
            errorReply("io.widgetscheduler.Scheduler.TooManyConnections", #"{"limit":3}"#)
        }
        let result = await withCheckedContinuation { continuation in
            WidgetCenter(socketPath: daemon.path).getCurrentConfigurations { continuation.resume(returning: $0) }
        }
        let refusal = "refused: the daemon already serves 3 connections (max-connections)"
        #expect(throws: WidgetCenterError.refused(name: "io.widgetscheduler.Scheduler.TooManyConnections",
                                                  message: refusal)) {
            try result.get()
        }
        _ = daemon.finish()
    }

    @Test func noDaemonAtTheSocketIsDaemonNotRunning() {
        let path = "/tmp/no-such-dir-\(getpid())/control.socket"
        do {
            try WidgetCenter(socketPath: path).reloadAllTimelines()
            Issue.record("reloaded with no daemon")
        } catch {
            guard case .daemonNotRunning(let socket, _) = error else {
                Issue.record("expected daemonNotRunning, got \(error)")
                return
            }
            #expect(socket == path)
            #expect(error.description.hasPrefix("widget-scheduler is not running (no daemon at \(path): "))
        }
    }

    @Test func theSocketComesFromTheEnvironmentUnlessNamed() throws {
        let daemon = try FakeDaemon { _ in decisionsReply }
        setenv("WIDGET_SCHEDULER_SOCKET", daemon.path, 1)
        defer { unsetenv("WIDGET_SCHEDULER_SOCKET") }
        #expect(WidgetCenter().socketPath == daemon.path)
        #expect(WidgetCenter(socketPath: "/elsewhere").socketPath == "/elsewhere")
        #expect(try WidgetCenter().reloadTimelines(ofKind: "weather").count == 4)
        _ = daemon.finish()
    }
}
