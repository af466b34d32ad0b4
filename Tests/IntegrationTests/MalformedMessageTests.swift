import Foundation
import Testing
import WidgetProtocol
import WidgetSchedulerTestKit

/// Bytes that are not a proper Varlink call, sent over a raw Unix socket: each gets a Varlink error (or, past the
/// size limit, an error and a close), and the daemon goes on serving everyone.
@Suite("Malformed control messages")
struct MalformedMessageTests {
    /// One malformed message and the error it must get.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var bytes: [UInt8]
        /// The Varlink error name expected.
        var error: String
        /// Whether the daemon may close the connection after its error.
        var closes: Bool

        var testDescription: String { name }
    }

    static let list = #"{"method":"io.widgetscheduler.Scheduler.List"}"#

    static let cases: [Case] = [
        Case(name: "bad JSON", bytes: Array(#"{"method": "io.widgetscheduler.Scheduler.List", "#.utf8) + [0],
             error: ControlError.Name.invalidMessage, closes: false),
        Case(name: "not UTF-8", bytes: [0xFF, 0xFE, 0x7B, 0xC3, 0x28, 0], error: ControlError.Name.invalidMessage,
             closes: false),
        Case(name: "a JSON array", bytes: Array("[1, 2, 3]".utf8) + [0], error: ControlError.Name.invalidMessage,
             closes: false),
        Case(name: "no method", bytes: Array(#"{"parameters": {}}"#.utf8) + [0],
             error: ControlError.Name.invalidMessage, closes: false),
        Case(name: "unknown method", bytes: Array(#"{"method":"io.widgetscheduler.Scheduler.Explode"}"#.utf8) + [0],
             error: ControlError.Name.methodNotFound, closes: false),
        Case(name: "unknown interface", bytes: Array(#"{"method":"com.example.Nothing.Here"}"#.utf8) + [0],
             error: ControlError.Name.interfaceNotFound, closes: false),
        Case(name: "wrong parameter type",
             bytes: Array(#"{"method":"io.widgetscheduler.Scheduler.Reload","parameters":{"kind":42}}"#.utf8) + [0],
             error: ControlError.Name.invalidParameter, closes: false),
        Case(name: "parameters not an object",
             bytes: Array(#"{"method":"io.widgetscheduler.Scheduler.Add","parameters":"weather"}"#.utf8) + [0],
             error: ControlError.Name.invalidMessage, closes: false),
        Case(name: "method not a string", bytes: Array(#"{"method":7}"#.utf8) + [0],
             error: ControlError.Name.invalidMessage, closes: false),
        Case(name: "a key given twice",
             bytes: Array(#"{"method":"io.widgetscheduler.Scheduler.Remove","parameters":{"id":"w1","id":"w2"}}"#.utf8)
                + [0],
             error: ControlError.Name.invalidMessage, closes: false),
        Case(name: "over 1 MiB without a terminator",
             bytes: Array(repeating: UInt8(ascii: "x"), count: ControlInterface.maximumMessageSize + 4_096),
             error: ControlError.Name.invalidMessage, closes: true),
        Case(name: "over 1 MiB, well formed",
             bytes: Array(#"{"method":"io.widgetscheduler.Scheduler.List","parameters":{"pad":""#.utf8)
                + Array(repeating: UInt8(ascii: "a"), count: ControlInterface.maximumMessageSize) + Array(#""}}"#.utf8)
                + [0],
             error: ControlError.Name.invalidMessage, closes: true),
    ]

    @Test("a malformed message gets a Varlink error; the daemon and its other clients carry on",
          arguments: cases)
    func malformedMessageGetsAnError(_ malformed: Case) throws {
        let world = try DaemonWorld()
        try world.start()
        let bystander = try RawVarlinkConnection(path: world.socketPath)
        let offender = try RawVarlinkConnection(path: world.socketPath)

        offender.send(malformed.bytes)
        let reply = offender.receive()
        guard case .message(let text) = reply else {
            Issue.record("expected a Varlink error, got \(reply); daemon log:\n\(world.daemonLog)")
            return
        }
        let error = try #require(JSONValue(jsonText: text)?.objectValue, "a JSON reply: \(text)")
        #expect(error["error"]?.stringValue == malformed.error, "\(text)")

        let next = offender.send(message: Self.list) ? offender.receive() : .closed
        if malformed.closes {
            #expect(next == .closed, "after an oversized message the connection ends: \(next)")
        } else if case .message(let text) = next {
            #expect(JSONValue(jsonText: text)?.objectValue?["parameters"]?.objectValue?["widgets"] != nil, "\(text)")
        } else {
            Issue.record("the connection should still serve calls after a recoverable error: \(next)")
        }

        #expect(bystander.send(message: Self.list))
        let served = bystander.receive()
        guard case .message(let answer) = served else {
            Issue.record("another client was affected: \(served)")
            return
        }
        #expect(JSONValue(jsonText: answer)?.objectValue?["error"] == nil, "\(answer)")
        let listed = try world.widgetctl("list")
        #expect(listed.status == 0, "\(listed)")
    }
}
