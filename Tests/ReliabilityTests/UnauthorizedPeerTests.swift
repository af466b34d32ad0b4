import Foundation
import Glibc
import Testing
import WidgetProtocol
import WidgetSchedulerTestKit

/// R6 (the peer half; the sandbox half needs the real unit: Tests/System/cases/50-sandbox.sh): state-changing calls
/// from a uid without permission are refused and logged, and change nothing.
@Suite("R6 unauthorized peers", .serialized)
struct UnauthorizedPeerTests {
    /// A `widgetctl` call made as uid nobody, and whether it must be refused.
    struct PeerCall: Sendable, CustomStringConvertible {
        var arguments: [String]
        var method: String
        var refused: Bool
        var description: String { "widgetctl " + arguments.joined(separator: " ") }
    }

    static let calls: [PeerCall] = [
        PeerCall(arguments: ["reload", "--kind", "guarded"], method: "Reload", refused: true),
        PeerCall(arguments: ["reload", "--kind", "guarded", "--foreground"], method: "Reload", refused: true),
        PeerCall(arguments: ["reload", "--all"], method: "Reload", refused: true),
        PeerCall(arguments: ["add", "--kind", "guarded"], method: "Add", refused: true),
        PeerCall(arguments: ["remove", "WIDGET"], method: "Remove", refused: true),
        PeerCall(arguments: ["data", "set", "g", "k", "v"], method: "DataSet", refused: true),
        PeerCall(arguments: ["data", "get", "g", "k"], method: "DataGet", refused: true),
        PeerCall(arguments: ["data", "list", "g"], method: "DataList", refused: true),
        PeerCall(arguments: ["list"], method: "List", refused: false),
    ]

    @Test("Reload, Add, Remove, group data and foreground from uid nobody are refused and logged; reads are open")
    func unauthorizedPeersAreRefused() throws {
        let world = try DaemonWorld(config: "")
        try world.addKind("guarded", script: """
            #!/bin/sh
            echo run >> runs.log
            echo '{"entries":[{"date":"2026-01-01T00:00:00Z","content":{}}],"policy":"never"}'
            """, manifestExtra: #"group = "g""#)
        try world.start()
        let widget = try world.connect().add("guarded")
        let runsLog = world.providersDirectory.appendingPathComponent("runs.log")
        _ = try eventually("the initial run; daemon log:\n\(world.daemonLog)") {
            (try? String(contentsOf: runsLog, encoding: .utf8)) != nil ? true : nil
        }
        Thread.sleep(forTimeInterval: 0.3)
        let runsBefore = try String(contentsOf: runsLog, encoding: .utf8)
        let widgetctl = try BuiltProducts.executable("widgetctl")
        let environment = ["WIDGET_SCHEDULER_SOCKET": world.socketPath, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
                           "NO_COLOR": "1"]
        var refusedCount = 0
        for call in Self.calls {
            let arguments = call.arguments.map { $0 == "WIDGET" ? widget : $0 }
            let result = try ChildProcess.run(
                ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", widgetctl] + arguments,
                environment: environment)
            if call.refused {
                #expect(result.status != 0, "\(call) as nobody: \(result.output)")
                #expect(result.output.lowercased().contains("permission"), "\(call): \(result.output)")
                refusedCount += 1
            } else {
                #expect(result.status == 0, "\(call) as nobody: \(result.output)")
            }
        }
        Thread.sleep(forTimeInterval: 0.3)
        let refusals = world.logLines.filter { $0.messageID == .requestRefused }
        for call in Self.calls where call.refused {
            #expect(refusals.contains { $0.message.hasPrefix("refused \(call.method) from") },
                    "\(call) is logged as refused")
        }
        #expect(refusals.count == refusedCount, "\(refusals.map(\.message))")
        #expect(refusals.allSatisfy { $0.message.contains("65534") || $0.message.contains("nobody") },
                "the log names the peer: \(refusals.map(\.message))")
        #expect(try String(contentsOf: runsLog, encoding: .utf8) == runsBefore, "a refused call runs nothing")
        #expect(try world.connect().list().map(\.id) == [widget], "a refused call adds or removes nothing")
        print("R6: \(refusedCount) state-changing calls and group data reads from uid nobody refused (exit status, "
              + "PermissionDenied, one requestRefused entry each); List open; no run, widget or data changed")
    }
}
