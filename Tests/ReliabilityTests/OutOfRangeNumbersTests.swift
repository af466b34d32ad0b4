import Foundation
import Glibc
import Testing
import WidgetProtocol
import WidgetSchedulerTestKit

/// R7's out-of-range numbers (issue 29 §1), through the real daemon: providers answering numbers that no date or
/// duration can hold, again after each backoff until they are quarantined; then every query a local user may make, by
/// `widgetctl` as uid nobody, before and after a kill -9 and a restart on the stored state. Before the range checks
/// one such answer was stored, and the next `widgetctl stack` trapped the daemon, at every start again.
@Suite("R7 out-of-range numbers", .serialized)
struct OutOfRangeNumbersTests {
    /// A provider's answer out of range, and the field its refusal must name.
    struct BadAnswer: Sendable {
        var kind: String
        var field: String
        var answer: String
    }

    static let entry = #"{"date":"2026-01-01T00:00:00Z","content":1"#
    static let badAnswers: [BadAnswer] = [
        BadAnswer(kind: "duration", field: "relevance.duration",
                  answer: #"{"entries":[\#(entry),"relevance":{"score":1,"duration":1e17}}],"policy":"never"}"#),
        BadAnswer(kind: "negative", field: "relevance.duration",
                  answer: #"{"entries":[\#(entry),"relevance":{"score":1,"duration":-1}}],"policy":"never"}"#),
        BadAnswer(kind: "score", field: "relevance.score",
                  answer: #"{"entries":[\#(entry),"relevance":{"score":1e300}}],"policy":"never"}"#),
        BadAnswer(kind: "tiny", field: "relevance.score",
                  answer: #"{"entries":[\#(entry),"relevance":{"score":-1e39}}],"policy":"never"}"#),
        BadAnswer(kind: "ancient", field: "date",
                  answer: #"{"entries":[{"date":"0001-01-01T00:00:00Z","content":1}],"policy":"never"}"#),
        BadAnswer(kind: "offset", field: "date",
                  answer: #"{"entries":[{"date":"1970-01-01T00:00:00+00:01","content":1}],"policy":"never"}"#),
        BadAnswer(kind: "after", field: "after",
                  answer: #"{"entries":[\#(entry)}],"policy":{"after":"9999-12-31T23:59:59-01:00"}}"#),
    ]
    /// Failed runs in a row before a widget is quarantined; the backoff between them is short.
    static let threshold = 4

    @Test("answers out of range are refused as invalid naming the field; the daemon stays up and loses nothing")
    func outOfRangeAnswersAreRefused() throws {
        // Each failure is retried after a short backoff until the widget is quarantined, as a crashing provider's.
        let world = try DaemonWorld(config: """
            minimum-interval = 0
            backoff-initial = 0.1
            backoff-maximum = 0.2
            quarantine-threshold = \(Self.threshold)
            """)
        try world.addKind("innocent", script: """
            #!/bin/sh
            echo '{"entries":[{"date":"2026-01-01T00:00:00Z","content":{"kept":true},"relevance":{"score":5}}],\
            "policy":"never"}'
            """)
        for bad in Self.badAnswers {
            try world.addKind(bad.kind, script: "#!/bin/sh\necho '\(bad.answer)'\n")
        }
        try world.start(logLevel: "info")
        let pid = world.daemonPID
        let innocent = try world.connect().add("innocent")
        let innocentEntry = try eventually("the innocent widget's entry") {
            try world.connect().list().first?.currentEntry
        }
        var ids: [String: BadAnswer] = [:]
        for bad in Self.badAnswers { ids[try world.connect().add(bad.kind)] = bad }

        _ = try eventually("every provider answering out of range quarantined", timeout: 60) { () -> Bool? in
            let quarantined = try world.connect().list().filter { ids[$0.id] != nil && $0.state == "quarantined" }
            return quarantined.count == ids.count ? true : nil
        }
        let failures = world.logLines.filter { $0.messageID == .runFailed }
        for (id, bad) in ids {
            let mine = failures.filter { $0.widget == id }
            #expect(mine.count >= Self.threshold, "\(bad.kind): \(mine.count) failed runs")
            for line in mine {
                #expect(line.fields["FAILURE_REASON"] == "invalid", "\(bad.kind): \(line)")
                #expect(line.message.contains(bad.field), "\(bad.kind) names \(bad.field): \(line)")
            }
        }
        var queries = try Self.queryAsNobody(world, ids: Array(ids.keys) + [innocent])
        let (status, memory) = try Self.statusAndMemory(world)
        #expect(world.isRunning && world.daemonPID == pid, "the daemon stayed up")
        #expect(status < 2, "Status from root within 2 s")
        #expect(memory.residentMB < 200)

        // The stored state read back by a new daemon, once written: nothing out of range may have been kept.
        _ = try eventually("the daemon's paced state write") { () -> Bool? in
            try world.connect().call(.status)["stateWritePending"] == .bool(false) ? true : nil
        }
        world.stopDaemon()
        try world.start(logLevel: "info")
        queries += try Self.queryAsNobody(world, ids: Array(ids.keys) + [innocent])
        let (statusAfter, memoryAfter) = try Self.statusAndMemory(world)
        #expect(statusAfter < 2, "Status from root within 2 s after the restart")
        let widgets = try world.connect().list()
        #expect(Set(widgets.map(\.id)) == Set(ids.keys).union([innocent]), "no widget lost")
        #expect(widgets.first { $0.id == innocent }?.currentEntry == innocentEntry, "the innocent widget's entry kept")
        #expect(widgets.filter { ids[$0.id] != nil }.allSatisfy { $0.currentEntry == nil && $0.state == "quarantined" },
                "nothing of an answer out of range kept; the quarantine kept")
        print("R7: out-of-range numbers: \(ids.count) providers (durations 1e17 and -1, scores 1e300 and -1e39, year "
              + "1, a date before 1970 by its offset, an after date past 9999), each refused as invalid naming the "
              + "field \(Self.threshold) times and quarantined; \(queries) queries by uid nobody (stack, timeline, "
              + "list, budget, status) answered, before and after a kill -9 and a restart; Status "
              + String(format: "%.1f ms, then %.1f ms", status * 1000, statusAfter * 1000) + "; RSS "
              + String(format: "%.0f MB, then %.0f MB", memory.residentMB, memoryAfter.residentMB)
              + "; the innocent widget's entry kept")
    }

    /// How long root's `Status` took, on a fresh connection, and the daemon's memory.
    static func statusAndMemory(_ world: DaemonWorld) throws -> (Double, DaemonMemory) {
        let started = bootSeconds()
        _ = try world.connect().call(.status, timeout: 30)
        return (bootSeconds() - started, try DaemonMemory(pid: world.daemonPID))
    }

    /// Every query a local user may make, by `widgetctl` as uid nobody, each of which must succeed: the count made.
    static func queryAsNobody(_ world: DaemonWorld, ids: [String]) throws -> Int {
        let widgetctl = try BuiltProducts.executable("widgetctl")
        let environment = ["WIDGET_SCHEDULER_SOCKET": world.socketPath, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
                           "NO_COLOR": "1"]
        var calls = [["stack"], ["stack", "--json"], ["list"], ["list", "--json"], ["budget"], ["status"]]
        for id in ids { calls += [["timeline", id], ["timeline", id, "--json"], ["budget", id]] }
        for arguments in calls {
            let result = try ChildProcess.run(
                ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", widgetctl] + arguments,
                environment: environment)
            #expect(result.status == 0, "widgetctl \(arguments.joined(separator: " ")) as nobody: \(result.output)")
        }
        return calls.count
    }
}
