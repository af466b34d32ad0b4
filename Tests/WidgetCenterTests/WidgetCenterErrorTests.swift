import Foundation
import Testing
import WidgetCenter
import WidgetProtocol

/// Each daemon error, the case it becomes, and the words `description` gives (the daemon's, as widgetctl prints them).
private let cases: [(reply: String, error: WidgetCenterError, description: String)] = [
    (errorReply("io.widgetscheduler.Scheduler.PermissionDenied",
                #"{"method":"Reload","reason":"Reload needs root or ownership of kind weather; uid 1000 has none"}"#),
     .permissionDenied(reason: "Reload needs root or ownership of kind weather; uid 1000 has none"),
     "permission denied: Reload needs root or ownership of kind weather; uid 1000 has none"),
    (errorReply("io.widgetscheduler.Scheduler.UnknownKind", #"{"kind":"wether"}"#),
     .unknownKind("wether"), #"unknown kind "wether""#),
    (errorReply("io.widgetscheduler.Scheduler.UnknownWidget", #"{"id":"w9"}"#),
     .unknownWidget("w9"), #"unknown widget "w9""#),
    (errorReply("io.widgetscheduler.Scheduler.InvalidParameter",
                #"{"parameter":"kind","reason":"give exactly one of kind, all or widgets"}"#),
     .invalidParameter(parameter: "kind", reason: "give exactly one of kind, all or widgets"),
     #"invalid parameter "kind": give exactly one of kind, all or widgets"#),
    // The standard name (issue 30 moves the daemon to it) reads the same way.
    (errorReply("org.varlink.service.InvalidParameter", #"{"parameter":"kind"}"#),
     .invalidParameter(parameter: "kind", reason: ""), #"invalid parameter "kind""#),
    (errorReply("io.widgetscheduler.Scheduler.TooManyConnections", #"{"limit":64,"uid":1000}"#),
     .refused(name: "io.widgetscheduler.Scheduler.TooManyConnections",
              message: "refused: uid 1000 already has 64 connections to the daemon open (max-connections-per-user)"),
     "refused: uid 1000 already has 64 connections to the daemon open (max-connections-per-user)"),
    // An error this library has never heard of keeps its name and parameters rather than failing to read.
    (errorReply("io.widgetscheduler.Scheduler.TooManyRequests", #"{"retryAfter":2}"#),
     .refused(name: "io.widgetscheduler.Scheduler.TooManyRequests",
              message: #"io.widgetscheduler.Scheduler.TooManyRequests {"retryAfter":2}"#),
     #"io.widgetscheduler.Scheduler.TooManyRequests {"retryAfter":2}"#),
]

@Suite struct WidgetCenterErrorTests {
    @Test(arguments: cases.indices)
    func eachDaemonErrorBecomesItsCaseWithTheDaemonsWords(index: Int) throws {
        let expected = cases[index]
        let daemon = try FakeDaemon { _ in expected.reply }
        do {
            try WidgetCenter(socketPath: daemon.path).reloadTimelines(ofKind: "weather")
            Issue.record("no error")
        } catch {
            #expect(error == expected.error)
            #expect(error.description == expected.description)
        }
        _ = daemon.finish()
    }

    @Test func aDaemonThatHangsUpMidCallIsAConnectionFailure() throws {
        let daemon = try FakeDaemon { _ in "" }
        let center = WidgetCenter(socketPath: daemon.path)
        // An empty message is not a Varlink reply.
        #expect(throws: WidgetCenterError.connectionFailed("unexpected reply from the daemon: ")) {
            try center.reloadAllTimelines()
        }
        _ = daemon.finish()
    }
}
