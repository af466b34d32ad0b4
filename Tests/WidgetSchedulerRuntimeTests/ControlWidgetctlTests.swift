import Foundation
import Glibc
import SystemdKit
import Testing
import WidgetProtocol
@testable import WidgetSchedulerRuntime
import WidgetSchedulerTestKit

/// The real `widgetctl` binary against the real `ControlServer`, with the test handler behind it. The server's loop
/// turns on this thread while widgetctl runs as a child process.
@Suite struct ControlWidgetctlTests {
    private let loop: EventLoop
    private let handler = ControlTestHandler()
    private let server: ControlServer
    private let path = controlSocketDirectory() + "/control.socket"

    init() throws {
        loop = try EventLoop()
        server = ControlServer(loop: loop, handler: handler, configuration: .init(version: "test"))
        try server.listen(path: path)
    }

    /// `widgetctl`, built next to the test bundle by `swift build` / `swift test`.
    private static var binary: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("widgetctl")
    }

    private struct Run {
        var status: Int32
        var output: String
        var error: String
    }

    /// Runs widgetctl with `arguments`, turning the server's loop until it exits; `whileRunning` runs each turn.
    private func widgetctl(_ arguments: [String], socket: Bool = true, whileRunning: () -> Void = {}) throws -> Run {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("widgetctl-\(UUID().uuidString)").path
        defer {
            unlink(base + ".out")
            unlink(base + ".err")
        }
        let input = try Descriptor.null()
        defer { close(input) }
        let output = try Descriptor.openForWriting(base + ".out")
        defer { close(output) }
        let error = try Descriptor.openForWriting(base + ".err")
        defer { close(error) }
        let process = try ChildProcess([Self.binary.path] + arguments + (socket ? ["--socket", path] : []),
                                       environment: ["TZ": "UTC", "PATH": "/usr/bin:/bin"], input: input,
                                       output: output, error: error)
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning && Date() < deadline {
            _ = try loop.runOnce(timeout: 10_000)
            whileRunning()
        }
        if process.isRunning { process.killAndWait() }
        func read(_ path: String) -> String {
            String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
        }
        return Run(status: process.exitStatus ?? -1, output: read(base + ".out"), error: read(base + ".err"))
    }

    @Test func binaryWasBuilt() {
        #expect(FileManager.default.isExecutableFile(atPath: Self.binary.path))
    }

    @Test func reloadPrintsOneSentencePerWidget() throws {
        let run = try widgetctl(["reload", "w1", "deferred-w3"])
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let formatter = DateFormatter()
        formatter.timeZone = utc.timeZone
        formatter.dateFormat = utc.isDateInToday(handler.deferredUntil) ? "HH:mm:ss" : "yyyy-MM-dd HH:mm:ss"
        #expect(run.status == 0)
        #expect(run.output.hasSuffix(
            "deferred-w3: deferred until \(formatter.string(from: handler.deferredUntil)) (minimum interval)\n"))
        #expect(run.output.hasPrefix("w1: ran at "))
        #expect(run.error.isEmpty)
    }

    @Test func reloadJSONIsTheDecisionsContract() throws {
        let run = try widgetctl(["reload", "--json", "w1"])
        #expect(run.status == 0)
        let json = try #require(JSONValue(jsonText: run.output))
        #expect(json == .object(["decisions": .array([.object([
            "widget": .string("w1"), "decision": .string("ran"), "at": .string("2026-11-18T11:06:40Z"),
            "because": .null,
        ])])]))
    }

    @Test func refusalIsOneLineOnStderrWithItsExitStatus() throws {
        let run = try widgetctl(["remove", "w1"])
        #expect(run.status == 4)
        #expect(run.output.isEmpty)
        #expect(run.error == "widgetctl: permission denied: test\n")
    }

    @Test func unknownKindExitsWithNotFound() throws {
        let run = try widgetctl(["reload", "--kind", "weather"])
        #expect(run.status == 5)
        #expect(run.error == "widgetctl: unknown kind \"any\"\n")
    }

    @Test func watchPrintsJSONLinesAndEndsCleanlyWhenTheStreamEnds() throws {
        var sent = false
        let run = try widgetctl(["watch", "--json"]) {
            guard !sent, !handler.watchers.isEmpty else { return }
            sent = true
            handler.broadcast("w1")
            handler.broadcast("w2")
            server.stop()
        }
        #expect(run.status == 0)
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines.first == #"{"content":"w1","date":"2026-11-18T11:06:40Z","event":"entryChanged","#
            + #""kind":"clock","widget":"w1"}"#)
    }

    @Test func missingDaemonExitsWithNotRunning() throws {
        let run = try widgetctl(["status", "--socket", path + ".absent"], socket: false)
        #expect(run.status == 3)
        #expect(run.error.hasPrefix("widgetctl: widget-scheduler is not running"))
        #expect(run.error.split(separator: "\n").count == 1)
    }

    @Test func badArgumentsNameTheArgument() throws {
        let run = try widgetctl(["add", "--kind", "weather", "--param", "city"])
        #expect(run.status == 64)
        #expect(run.error.contains("--param \"city\" must be NAME=VALUE"))
    }
}
