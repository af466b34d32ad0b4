import Foundation
import Glibc
import Testing
import WidgetProtocol
import WidgetSchedulerCore
import WidgetSchedulerRuntime
import WidgetSchedulerTestKit

/// A provider that answers one good timeline, then misbehaves on every later run; the reason each bad run must end
/// with in the daemon's log (`FAILURE_REASON`).
struct HostileKind: Sendable, CustomStringConvertible {
    var kind: String
    var behaviour: String
    var body: String
    var timeout = 2.0
    var reason: String

    var description: String { "\(kind): \(behaviour)" }

    /// The script: the first run (the `initial` one) answers a timeline whose one entry is past with policy
    /// `atEnd`, so the daemon asks again at once; every later run is the hostile body.
    var script: String {
        """
        #!/bin/sh
        if [ ! -e \(kind).answered ]; then
            : > \(kind).answered
            echo '{"entries":[{"date":"2026-01-01T00:00:00Z","content":{"text":"good \(kind)"}}],"policy":"atEnd"}'
            exit 0
        fi
        \(body)
        """
    }

    static let all: [HostileKind] = [
        HostileKind(kind: "segv", behaviour: "crashes with SIGSEGV", body: "kill -SEGV $$", reason: "signal"),
        HostileKind(kind: "hang", behaviour: "hangs", body: "sleep 60", timeout: 1, reason: "timeout"),
        HostileKind(kind: "grandchild", behaviour: "exits, its grandchild holding stdout",
                    body: "sleep 60 &\nexit 0", reason: "invalid"),
        HostileKind(kind: "garbage", behaviour: "prints garbage", body: "head -c 3000 /dev/urandom", reason: "invalid"),
        HostileKind(kind: "flood", behaviour: "prints 10 MB", body: "head -c 10000000 /dev/zero",
                    reason: "output-too-large"),
        HostileKind(kind: "memory", behaviour: "allocates past memory-max",
                    body: "exec python3 -c 'block = bytearray(512 * 1024 * 1024); print(len(block))'",
                    reason: "memory"),
        HostileKind(kind: "forkbomb", behaviour: "fork-bombs (bounded: 2^7 processes)", body: """
            bomb() { if [ "$1" -gt 0 ]; then bomb $(($1 - 1)) & bomb $(($1 - 1)) & fi; sleep 60; }
            bomb 6
            """, timeout: 1, reason: "timeout"),
        HostileKind(kind: "stderr", behaviour: "exits 3 with a useful stderr",
                    body: "echo 'stderr: no API key in /etc/weather.conf' >&2\nexit 3", reason: "exit"),
    ]
}

/// R1: hostile providers through the real daemon, all at once, each in its own widget.
@Suite("R1 hostile providers through the daemon", .serialized)
struct HostileProviderTests {
    static let grace = 2.0
    static let settings = SchedulerSettings(
        minimumInterval: 0, dailyBudget: 100_000, burstBudget: 1_000, backoffInitial: 0.25, backoffMaximum: 1,
        quarantineThreshold: 10, maxConcurrentRuns: 8, coalesceWindow: 0)

    @Test("every hostile provider is contained, backed off and quarantined; the daemon keeps the good timeline")
    func hostileProvidersAreContainedAndQuarantined() throws {
        let world = try DaemonWorld(config: """
            minimum-interval = 0
            daily-budget = 100000
            burst-budget = 1000
            backoff-initial = 0.25
            backoff-maximum = 1
            quarantine-threshold = 10
            max-concurrent-runs = 8
            coalesce-window = 0
            """)
        for hostile in HostileKind.all {
            try world.addKind(hostile.kind, script: hostile.script, timeout: hostile.timeout)
        }
        try world.start()
        let started = Date()
        var widgets: [String: HostileKind] = [:]
        for hostile in HostileKind.all {
            widgets[try world.connect().add(hostile.kind)] = hostile
        }
        let threshold = Self.settings.quarantineThreshold
        _ = try eventually("every widget quarantined; log:\n\(world.daemonLog.suffix(3000))",
                           timeout: 90) { () -> Bool? in
            let quarantined = Set(world.logLines.filter { $0.messageID == .quarantined }.compactMap(\.widget))
            return quarantined.isSuperset(of: widgets.keys) ? true : nil
        }
        let toQuarantine = Date().timeIntervalSince(started)
        // Quarantine means no more runs: give the scheduler time to misbehave.
        Thread.sleep(forTimeInterval: 1.5)
        #expect(world.isRunning, "the daemon stays up")
        let lines = world.logLines
        let summaries = try world.connect().list()
        var leftovers: [ProviderProcesses.Leftover] = []
        for (id, hostile) in widgets.sorted(by: { $0.key < $1.key }) {
            let mine = lines.filter { $0.widget == id }
            let failures = mine.filter { $0.messageID == .runFailed }
            let successes = mine.filter { $0.messageID == .runFinished }
            let starts = mine.filter { $0.messageID == .runStarted }
            #expect(successes.count == 1, "\(hostile): one good run")
            #expect(failures.count == threshold, "\(hostile): \(threshold) failures, then quarantine")
            // A run that ended before the daemon took its spawn over has no start line; any start line belongs to
            // one of the runs above, so none was left going after the quarantine.
            let ended = Set((successes + failures).compactMap { $0.fields["PROVIDER_PID"] })
            let unended = starts.compactMap { $0.fields["PROVIDER_PID"] }.filter { !ended.contains($0) }
            #expect(unended.isEmpty, "\(hostile): runs started and not ended: \(unended)")
            for failure in failures {
                #expect(failure.fields["FAILURE_REASON"] == hostile.reason, "\(hostile): \(failure)")
                let seconds = Double(failure.fields["DURATION_USEC"] ?? "").map { $0 / 1e6 } ?? .infinity
                #expect(seconds <= hostile.timeout + Self.grace + 1, "\(hostile): contained in \(seconds) s")
            }
            let quarantine = mine.first { $0.messageID == .quarantined }
            #expect(quarantine?.fields["FAILURE_REASON"] == hostile.reason,
                    "\(hostile): \(String(describing: quarantine))")
            let summary = summaries.first { $0.id == id }
            #expect(summary?.state == "quarantined", "\(hostile): \(String(describing: summary?.state))")
            #expect(summary?.currentEntry?.content == .object(["text": .string("good \(hostile.kind)")]),
                    "\(hostile): the last good timeline is kept")
            if hostile.kind == "stderr" {
                #expect(failures.allSatisfy { $0.message.contains("no API key in /etc/weather.conf") })
            }
            for start in starts {
                guard let pid = Int32(start.fields["PROVIDER_PID"] ?? "") else { continue }
                leftovers += ProviderProcesses.inGroup(pid)
            }
        }
        leftovers += ProviderProcesses.under(world.providersDirectory.path)
        #expect(leftovers.isEmpty, "no provider process left behind: \(leftovers)")

        // Backoff, from the stored history (monotonic ends of runs): each retry waited its delay after a failure.
        world.signal(SIGTERM)
        _ = try eventually("the daemon to stop") { world.isRunning ? nil : true }
        let store = try StateStore(directory: world.stateDirectory)
        var shortestRatio = Double.infinity
        for (id, hostile) in widgets {
            let runs = try store.history(widgetID: id).filter { $0.event == .run }
            let failed = runs.filter { $0.outcome != "success" }
            #expect(failed.count == threshold, "\(hostile): \(runs.map(\.outcome))")
            for index in failed.indices.dropFirst() {
                let delay = Backoff.delay(afterFailures: index, settings: Self.settings)
                let gap = failed[index].monotonic - failed[index - 1].monotonic
                shortestRatio = min(shortestRatio, gap / delay)
                #expect(gap >= delay * 0.95,
                        "\(hostile): failure \(index + 1) came \(gap) s after the previous, before its \(delay) s")
            }
        }
        try store.close()
        print("R1: \(widgets.count) hostile providers, \(threshold) failures each, all quarantined in "
              + String(format: "%.1f s", toQuarantine) + "; shortest gap/backoff ratio "
              + String(format: "%.2f", shortestRatio) + "; leftover processes: \(leftovers.count)")
    }
}
