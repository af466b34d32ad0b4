import Foundation
import Glibc
import Testing
import WidgetProtocol
import WidgetSchedulerTestKit

/// R5: the wall clock moved +1 day, −1 day, and a suspend/resume, through the daemon's test-only clock offset
/// (`WIDGET_SCHEDULER_TEST_FAULTS=1`, SIGUSR2 reads `<runtime-dir>/test-clock-offset`). The machine's clock is never
/// set.
@Suite("R5 wall-clock jumps and suspend", .serialized)
struct ClockJumpTests {
    static let widgetCount = 20

    /// Answers one entry at the request's `now` (the daemon's wall clock, offset included) with policy
    /// `after(now + 1 h)`, and logs each run's start (seconds since boot), widget and reason.
    static let provider = """
        #!/usr/bin/env python3
        import datetime, json, sys
        request = json.loads(sys.stdin.readline())
        now = datetime.datetime.fromisoformat(request["context"]["now"].replace("Z", "+00:00"))
        with open("runs.log", "a") as log:
            uptime = open("/proc/uptime").read().split()[0]
            log.write(f"{uptime} {request['widget']['id']} {request['context']['reason']}\\n")
        stamp = lambda date: date.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
        later = now + datetime.timedelta(hours=1)
        print(json.dumps({"entries": [{"date": stamp(now), "content": {}}], "policy": {"after": stamp(later)}}))
        """

    static func runs(_ world: DaemonWorld) -> [(widget: String, reason: String)] {
        let url = world.providersDirectory.appendingPathComponent("runs.log")
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ")
            return parts.count == 3 ? (String(parts[1]), String(parts[2])) : nil
        }
    }

    /// Waits until the provider has logged `count` runs, then a quiet second and a half, and returns the runs.
    static func settle(_ world: DaemonWorld, atLeast count: Int) throws -> [(widget: String, reason: String)] {
        _ = try eventually("\(count) runs; log:\n\(world.daemonLog.suffix(2000))") {
            runs(world).count >= count ? true : nil
        }
        Thread.sleep(forTimeInterval: 1.5)
        return runs(world)
    }

    static func tokens(_ world: DaemonWorld) throws -> [String: Double] {
        Dictionary(uniqueKeysWithValues: try world.connect().list().map { ($0.id, $0.tokens) })
    }

    @Test("jumps and a suspend recompute the schedule, mint no budget and cause no storm")
    func wallClockJumpsAreHandled() throws {
        let world = try DaemonWorld(config: """
            minimum-interval = 0
            daily-budget = 24
            burst-budget = 10
            coalesce-window = 1
            max-concurrent-runs = 4
            """)
        try world.addKind("clock", script: Self.provider)
        try world.start()
        for _ in 0..<Self.widgetCount { _ = try world.connect().add("clock") }
        var seen = try Self.settle(world, atLeast: Self.widgetCount).count
        // Spend some budget first (explicit runs), so that minted tokens would show below the cap.
        for round in 1...3 {
            _ = try world.connect().call(.reload, ["kind": .string("clock")])
            seen = try Self.settle(world, atLeast: Self.widgetCount * (round + 1)).count
        }
        var report: [String] = []
        var tokens = try Self.tokens(world)
        let jumps: [(name: String, offset: Double, suspend: Bool, runsPerWidget: Int)] = [
            ("+1 day", 86_400, false, 1),
            ("-1 day", 0, false, 0),
            ("suspend 3 s, wall +26 h", 26 * 3_600, true, 1),
        ]
        for jump in jumps {
            let before = bootSeconds()
            if jump.suspend {
                world.signal(SIGSTOP)
                Thread.sleep(forTimeInterval: 3)
                try world.setWallClockOffset(jump.offset)
                world.signal(SIGCONT)
            } else {
                try world.setWallClockOffset(jump.offset)
            }
            let all = try Self.settle(world, atLeast: seen + Self.widgetCount * jump.runsPerWidget)
            let new = all.dropFirst(seen)
            seen = all.count
            var perWidget: [String: Int] = [:]
            for run in new { perWidget[run.widget, default: 0] += 1 }
            #expect(new.count == Self.widgetCount * jump.runsPerWidget, "\(jump.name): \(new.count) runs")
            #expect(perWidget.values.allSatisfy { $0 == jump.runsPerWidget }, "\(jump.name): \(perWidget)")
            #expect(new.allSatisfy { $0.reason == "policy" }, "\(jump.name): \(new.map(\.reason))")
            let current = try Self.tokens(world)
            let refill = (bootSeconds() - before) * 24 / 86_400
            var minted: [String] = []
            for (id, value) in current {
                let spent = Double(perWidget[id] ?? 0)
                if value > (tokens[id] ?? 0) - spent + refill + 0.001 {
                    minted.append("\(id): \(tokens[id] ?? 0) → \(value)")
                }
            }
            #expect(minted.isEmpty, "\(jump.name): budget minted: \(minted.prefix(3))")
            // Recomputed: every widget's next reload is its policy date, one hour after its last run's `now`.
            let wallNow = Date().addingTimeInterval(jump.offset)
            let summaries = try world.connect().list()
            for summary in summaries {
                let lead = summary.nextReload.map { $0.timeIntervalSince(wallNow) } ?? -1
                let expected = jump.runsPerWidget == 0 ? 3_600.0 + 86_400 : 3_600
                #expect(abs(lead - expected) < 30, "\(jump.name): \(summary.id) next reload in \(lead) s")
            }
            tokens = current
            report.append("\(jump.name): \(new.count) runs, \(minted.count) widgets minted tokens")
        }
        let jumpsLogged = world.logLines.filter { $0.messageID == .clockChanged }.count
        #expect(jumpsLogged >= jumps.count, "each jump is logged")
        #expect(world.isRunning)
        print("R5: \(Self.widgetCount) widgets, policy after(now + 1 h): " + report.joined(separator: "; ")
              + "; \(jumpsLogged) clock-change entries logged")
    }
}
