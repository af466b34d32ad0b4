import Foundation
import Glibc
import Testing
import WidgetProtocol
import WidgetSchedulerTestKit

/// A run a stop interrupts (kill -9 or SIGTERM) spent its token when it started; the run the restarted daemon makes
/// in its place spends none. Issue 29 §5 found `reload` taking tokens 3 -> 2.01 and the re-run after the restart
/// another, 1.08, while the ledger showed one budgeted run.
@Suite("interrupted run charged once")
struct InterruptedRunChargeTests {
    /// Logs each run's reason, then answers at once, or, while `hold` exists, first waits for it to go: a run
    /// the test can interrupt.
    static let provider = """
        #!/bin/sh
        IFS= read -r request
        reason=${request#*\\"reason\\":\\"}
        reason=${reason%%\\"*}
        echo "$reason" >> runs.log
        while [ -e hold ]; do sleep 0.05; done
        echo '{"entries":[{"date":"2026-01-01T00:00:00Z","content":{"text":"ok"}}],"policy":"never"}'
        """

    @Test("the run after the restart uses the interrupted run's token", arguments: [SIGKILL, SIGTERM])
    func theRunAfterTheRestartUsesTheInterruptedRunsToken(signal: Int32) throws {
        // A refill of one token a day: 0.001 tokens in 90 s, far below the one token a second charge would take.
        let world = try DaemonWorld(config: """
            minimum-interval = 1
            daily-budget = 1
            burst-budget = 3
            coalesce-window = 0
            """)
        try world.addKind("held", script: Self.provider)
        try world.start()
        let id = try world.connect().add("held")
        let runs = world.providersDirectory.appendingPathComponent("runs.log")
        let hold = world.providersDirectory.appendingPathComponent("hold")
        _ = try eventually("the initial run's end") { () -> Bool? in
            try world.connect().list().first { $0.id == id }?.lastOutcome == "success" ? true : nil
        }
        #expect(try Self.tokens(of: id, in: world) > 2.999)

        // Past the 1 s floor, so the reload runs at once and spends its token.
        Thread.sleep(forTimeInterval: 1.1)
        _ = FileManager.default.createFile(atPath: hold.path, contents: nil)
        _ = try world.connect().call(.reload, ["widgets": .array([.string(id)])])
        _ = try eventually("the explicit run in flight") { () -> Bool? in
            Self.reasons(runs) == ["initial", "explicit"] ? true : nil
        }
        let afterSpend = try Self.tokens(of: id, in: world)
        #expect(afterSpend > 1.999 && afterSpend < 2.01, "the reload spent one token: \(afterSpend)")

        world.signal(signal)
        if signal != SIGKILL {
            _ = try eventually("the daemon's exit") { () -> Bool? in world.isRunning ? nil : true }
        }
        try FileManager.default.removeItem(at: hold)
        try world.start()
        _ = try eventually("the run in place of the interrupted one, ended") { () -> Bool? in
            guard Self.reasons(runs).count == 3 else { return nil }
            return try world.connect().list().first { $0.id == id }?.lastOutcome == "success" ? true : nil
        }
        #expect(Self.reasons(runs) == ["initial", "explicit", "explicit"])
        let tokens = try Self.tokens(of: id, in: world)
        #expect(tokens > 1.999 && tokens < 2.01, "one budgeted run, one token: \(tokens) left")
        let resumed = world.logLines.filter { $0.messageID == .interruptedRunResumed }
        #expect(resumed.map(\.widget) == [id], "\(resumed)")
    }

    static func tokens(of id: String, in world: DaemonWorld) throws -> Double {
        guard let summary = try world.connect().list().first(where: { $0.id == id }) else {
            throw TestFailure("\(id) is not listed")
        }
        return summary.tokens
    }

    static func reasons(_ log: URL) -> [String] {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }
}
