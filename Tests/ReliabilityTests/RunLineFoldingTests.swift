import Foundation
import Testing
import WidgetProtocol
import WidgetSchedulerTestKit

/// The real daemon, a developer-mode provider looping as fast as it can: its runs get two journal lines per state
/// write rather than one each, and the lines account for every run exactly once.
@Suite("run line folding")
struct RunLineFoldingTests {
    static let runs = 60

    /// Counts its runs in its group's data directory; due again at once (`atEnd`, an entry long past) until the last.
    static let provider = """
        #!/bin/sh
        request=''
        while IFS= read -r line || [ -n "$line" ]; do request="$request$line"; done
        directory=${request#*\\"dataDirectory\\":\\"}
        directory=${directory%%\\"*}
        count=$(cat "$directory/runs" 2> /dev/null || echo 0)
        count=$((count + 1))
        echo "$count" > "$directory/runs"
        policy=atEnd
        [ "$count" -lt \(runs) ] || policy=never
        echo '{"entries":[{"date":"2000-01-01T00:00:00Z","content":{}}],"policy":"'$policy'"}'
        """

    @Test func aLoopingProvidersRunsAreFoldedAndTheLinesCountEveryRunOnce() throws {
        let world = try DaemonWorld(config: "developer-kinds = [\"loop\"]\n")
        try world.addKind("loop", script: Self.provider, manifestExtra: "group = \"loop\"")
        try world.start(logLevel: "info")
        let started = Date()
        let id = try world.connect().add("loop")
        let counter = world.stateDirectory.appendingPathComponent("groups/loop/runs")
        // The last run's line comes with the state write after it, at most ~150 ms later.
        let lines = try eventually("\(Self.runs) runs, each counted by a line") { () -> [DaemonLogLine]? in
            let ran = (try? String(contentsOf: counter, encoding: .utf8)).flatMap {
                Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            guard ran == Self.runs else { return nil }
            let lines = world.logLines.filter { $0.widget == id && $0.messageID == .runFinished }
            let counted = lines.reduce(0) { $0 + 1 + (Int($1.fields["RUNS_FOLDED"] ?? "0") ?? -1_000) }
            return counted >= Self.runs ? lines : nil
        }
        let seconds = Date().timeIntervalSince(started)
        let counted = lines.reduce(0) { $0 + 1 + (Int($1.fields["RUNS_FOLDED"] ?? "0") ?? -1_000) }
        #expect(counted == Self.runs, "lines: \(lines)")
        // At most two lines between state writes (the first run's at once, the others' folded into one), and the
        // writes at least 100 ms apart: runs closer than that share lines. Their spacing is the machine's (a loaded
        // one may take 100 ms to start a shell), so the bound is on the time they took; when they are a few ms
        // apart, as usual, it is far below a line a run.
        #expect(lines.count <= 2 * (Int(seconds / 0.1) + 2),
                "\(lines.count) lines for \(Self.runs) runs in \(seconds) s")
        #expect(Set(lines.compactMap { $0.fields["PROVIDER_PID"] }).count == lines.count)
        #expect(lines.last?.fields["POLICY"] == "never", "the last run's line comes last")
        #expect(world.logLines.filter { $0.messageID == .runFailed }.isEmpty, "\(world.daemonLog.suffix(2000))")
        // The history lines fold with the journal's: `Budget` lists as many and counts every run.
        let reply = try world.connect().call(.budget, ["id": .string(id)])
        let ledger = try #require(try VarlinkCoding.decode(BudgetMethod.Reply.self, from: reply).ledgers.first)
        #expect(ledger.runs.count == lines.count, "\(ledger.runs)")
        #expect(ledger.runs.reduce(0) { $0 + $1.runCount } == Self.runs)
        #expect(ledger.budgetedRuns24h + ledger.exemptRuns24h == Self.runs)
    }
}
