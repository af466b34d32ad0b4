import Foundation
import Glibc
import Testing
import WidgetControl
import WidgetProtocol
import WidgetSchedulerTestKit

/// A one-connection fake daemon on a thread: reads one call, answers with `replies` (each NUL-terminated), closes.
private final class FakeDaemon: @unchecked Sendable {
    let path: String
    private var listener: UnixListener?
    private(set) var received: [UInt8] = []
    private let done = DispatchSemaphore(value: 0)

    init(replies: [String]) throws {
        let listener = try UnixListener(prefix: "ctl-client")
        self.listener = listener
        path = listener.path
        let thread = Thread { [self] in
            let client = listener.accept()
            var byte: UInt8 = 0
            while recv(client, &byte, 1, 0) == 1 {
                if byte == 0 { break }
                received.append(byte)
            }
            for reply in replies {
                let bytes = Array(reply.utf8) + [0]
                _ = bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            }
            close(client)
            done.signal()
        }
        thread.start()
    }

    func finish() -> String {
        done.wait()
        listener = nil
        return String(decoding: received, as: UTF8.self)
    }
}

@Suite struct ControlClientTests {
    @Test func callSendsTheQualifiedMethodAndDecodesTheReply() throws {
        let daemon = try FakeDaemon(replies: [#"{"parameters":{"id":"w7"}}"#])
        let client = try ControlClient(path: daemon.path)
        let reply = try client.call(AddMethod.self, .init(kind: "weather", parameters: ["city": .string("Oslo")]))
        #expect(reply.id == "w7")
        let request = try JSONDecoder().decode(VarlinkRequest.self, from: Data(daemon.finish().utf8))
        #expect(request.method == "io.widgetscheduler.Scheduler.Add")
        #expect(request.parameters?["kind"] == .string("weather"))
    }

    @Test func varlinkErrorBecomesARemoteErrorWithItsExitStatus() throws {
        let daemon = try FakeDaemon(
            replies: [#"{"error":"io.widgetscheduler.Scheduler.UnknownKind","parameters":{"kind":"x"}}"#])
        let client = try ControlClient(path: daemon.path)
        #expect(throws: ControlClientError.remote(.unknownKind("x"))) {
            try client.call(ReloadMethod.self, .init(kind: "x"))
        }
        _ = daemon.finish()
        #expect(ControlClientError.remote(.unknownKind("x")).exitStatus == .notFound)
    }

    @Test func streamDeliversEachEventThenEndsOnTheEmptyReply() throws {
        let event = #"{"continues":true,"parameters":{"date":"2026-11-22T10:37:07Z","event":"entryChanged","#
            + #""kind":"k","widget":"w1","content":1}}"#
        let daemon = try FakeDaemon(replies: [event, event, #"{"parameters":{}}"#])
        let client = try ControlClient(path: daemon.path)
        var widgets: [String] = []
        let last = try client.stream(WatchMethod.self, .init()) { event in
            widgets.append(event.widget)
            return true
        }
        #expect(widgets == ["w1", "w1"])
        #expect(last == nil)
        #expect(daemon.finish().contains(#""more":true"#))
    }

    @Test func daemonClosingMidCallIsReported() throws {
        let daemon = try FakeDaemon(replies: [])
        let client = try ControlClient(path: daemon.path)
        #expect(throws: ControlClientError.connectionClosed) { try client.call(ListMethod.self, NoParameters()) }
        _ = daemon.finish()
    }

    /// A daemon over its connection limit answers before reading and closes: the client's call then fails to go out
    /// (EPIPE), and the refusal already in its socket is what it reports, not a closed connection.
    @Test(arguments: [
        ControlError.tooManyConnections(limit: 64, uid: 65534),
        .connectionTimedOut(.idle, seconds: 60),
        .bufferFull(.daemonBudget, limit: 64 << 20),
    ])
    func aRefusalSentBeforeTheCallIsReportedByName(refusal: ControlError) throws {
        let listener = try UnixListener(prefix: "ctl-refuse")
        let client = try ControlClient(path: listener.path)
        let connection = listener.accept()
        var bytes = try VarlinkCoding.encode(VarlinkReply(error: refusal))
        bytes.append(0)
        _ = bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        close(connection)
        #expect(throws: ControlClientError.remote(refusal)) { try client.call(StatusMethod.self, NoParameters()) }
        #expect(ControlClientError.remote(refusal).description == refusal.message)
    }

    @Test func missingSocketMeansTheDaemonIsNotRunning() {
        do {
            _ = try ControlClient(path: "/tmp/no-such-dir-\(getpid())/control.socket")
            Issue.record("connected to nothing")
        } catch {
            #expect(error.exitStatus == .notRunning)
            #expect(error.description.hasPrefix("widget-scheduler is not running"))
        }
    }

    @Test(arguments: [
        (String?.some("/a.sock"), ["WIDGET_SCHEDULER_SOCKET": "/b.sock"], "/a.sock"),
        (nil, ["WIDGET_SCHEDULER_SOCKET": "/b.sock"], "/b.sock"),
        (nil, [String: String](), "/run/widget-scheduler/control.socket"),
        ("", ["WIDGET_SCHEDULER_SOCKET": ""], "/run/widget-scheduler/control.socket"),
    ])
    func socketPathPrefersTheOptionThenTheEnvironment(option: String?, environment: [String: String], path: String) {
        #expect(ControlClient.socketPath(option: option, environment: environment) == path)
    }

    @Test(arguments: [
        (ControlClientError.remote(.permissionDenied(method: "Reload", reason: "r")),
         CommandExitStatus.permissionDenied),
        (.remote(.unknownWidget("w")), .notFound),
        (.remote(.unknownKey(group: "g", key: "k")), .notFound),
        (.remote(.invalidParameter("p", reason: "r")), .invalidArgument),
        (.remote(.providerFailed(kind: "k", reason: "timeout", detail: "d")), .failure),
        (.daemonNotRunning(path: "/p", reason: "r"), .notRunning),
        (.socketNotAccessible(path: "/p", reason: "r"), .permissionDenied),
        (.connectionClosed, .failure),
    ])
    func everyFailureHasANonZeroExitStatus(error: ControlClientError, status: CommandExitStatus) {
        #expect(error.exitStatus == status)
        #expect(status.rawValue != 0)
        #expect(!error.description.contains("\n"))
    }
}
