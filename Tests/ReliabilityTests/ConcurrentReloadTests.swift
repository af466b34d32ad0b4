import Dispatch
import Foundation
import Glibc
import Testing
import WidgetProtocol
import WidgetSchedulerTestKit

/// R4: 1 000 `Reload --kind` calls at once, each on its own connection, for one kind of 50 widgets.
@Suite("R4 concurrent reloads of one kind", .serialized)
struct ConcurrentReloadTests {
    static let requests = 1_000
    static let widgetCount = 50
    static let slots = 8

    /// Logs its start and end (seconds since boot) and, while the file `hold` exists, stays in flight: the burst of
    /// reloads meets runs in flight and queued, as concurrent requests would on a busy machine.
    static let provider = """
        #!/bin/sh
        IFS= read -r request
        id=${request#*\\"id\\":\\"}
        id=${id%%\\"*}
        read uptime idle < /proc/uptime
        echo "start $uptime $id" >> runs.log
        while [ -e hold ]; do sleep 0.2; done
        read uptime idle < /proc/uptime
        echo "end $uptime $id" >> runs.log
        echo '{"entries":[{"date":"2026-01-01T00:00:00Z","content":{}}],"policy":"never"}'
        """

    /// One line of the provider's log.
    struct RunEvent {
        var isStart: Bool
        var time: Double
        var widget: String
    }

    static func events(_ world: DaemonWorld) -> [RunEvent] {
        let url = world.providersDirectory.appendingPathComponent("runs.log")
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ")
            guard parts.count == 3, let time = Double(parts[1]) else { return nil }
            return RunEvent(isStart: parts[0] == "start", time: time, widget: String(parts[2]))
        }
    }

    @Test("every request is answered; at most one run in flight per widget and one follow-up")
    func thousandConcurrentReloadsCoalesce() throws {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        if limit.rlim_cur < 4_096 {
            limit.rlim_cur = min(limit.rlim_max, 4_096)
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        let world = try DaemonWorld(config: """
            developer-kinds = ["burst"]
            max-concurrent-runs = \(Self.slots)
            coalesce-window = 0
            """)
        try world.addKind("burst", script: Self.provider, timeout: 120)
        // Notice level: 1 000 replies of 50 decisions would otherwise write 50 000 info lines.
        try world.start(logLevel: "notice")
        for _ in 0..<Self.widgetCount { _ = try world.connect().add("burst") }
        _ = try eventually("the initial runs to end") { () -> Bool? in
            Self.events(world).filter { !$0.isStart }.count == Self.widgetCount ? true : nil
        }
        let mark = Self.events(world).count
        let hold = world.providersDirectory.appendingPathComponent("hold")
        _ = FileManager.default.createFile(atPath: hold.path, contents: nil)

        let connections = try (0..<Self.requests).map { _ in try world.connect() }
        let replies = Locked([RawVarlinkConnection.Reply?](repeating: nil, count: Self.requests))
        let started = bootSeconds()
        let senders = 8
        DispatchQueue.concurrentPerform(iterations: senders) { sender in
            for index in stride(from: sender, to: Self.requests, by: senders) {
                connections[index].send(method: .reload, parameters: ["kind": .string("burst")])
            }
            for index in stride(from: sender, to: Self.requests, by: senders) {
                let reply = connections[index].receive(timeout: 30)
                replies.withLock { $0[index] = reply }
            }
        }
        let answeredIn = bootSeconds() - started
        let inFlightDuringBurst = Set(Self.events(world).dropFirst(mark).map(\.widget)).count
        try FileManager.default.removeItem(at: hold)
        var decisions: [String: Int] = [:]
        var unanswered: [String] = []
        for (index, reply) in replies.withLock({ $0 }).enumerated() {
            guard case .message(let text)? = reply, reply?.errorName == nil,
                  let parameters = JSONValue(jsonText: text)?.objectValue?["parameters"]?.objectValue,
                  let answer = try? VarlinkCoding.decode(ReloadMethod.Reply.self, from: parameters),
                  answer.decisions.count == Self.widgetCount
            else {
                unanswered.append("request \(index): \(reply.map(String.init(describing:)) ?? "nothing")")
                continue
            }
            for decision in answer.decisions { decisions[decision.decision.rawValue, default: 0] += 1 }
        }
        // Quiet: every run that started has ended, and nothing new for a second.
        var settled = Self.events(world)
        _ = try eventually("the runs to settle", timeout: 60, interval: 1) { () -> Bool? in
            let now = Self.events(world)
            defer { settled = now }
            let starts = now.filter(\.isStart).count
            return now.count == settled.count && starts * 2 == now.count ? true : nil
        }
        let after = Array(settled.dropFirst(mark))
        var runsPerWidget: [String: Int] = [:]
        var overlaps: [String] = []
        var inFlight: [String: Double] = [:]
        for event in after.sorted(by: { $0.time < $1.time || ($0.time == $1.time && !$0.isStart) }) {
            if event.isStart {
                runsPerWidget[event.widget, default: 0] += 1
                if inFlight[event.widget] != nil { overlaps.append("\(event.widget) at \(event.time)") }
                inFlight[event.widget] = event.time
            } else {
                inFlight[event.widget] = nil
            }
        }
        #expect(unanswered.isEmpty, "\(unanswered.count) requests unanswered: \(unanswered.prefix(3))")
        #expect(overlaps.isEmpty, "two runs of one widget in flight: \(overlaps.prefix(5))")
        #expect(runsPerWidget.count == Self.widgetCount, "every widget reloaded")
        #expect(inFlightDuringBurst <= Self.slots, "runs in flight during the burst: \(inFlightDuringBurst)")
        #expect(runsPerWidget.values.allSatisfy { $0 <= 2 }, "one run plus at most one follow-up: \(runsPerWidget)")
        #expect(world.isRunning)
        let runs = runsPerWidget.values.reduce(0, +)
        let decided = decisions.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        print("R4: \(Self.requests) concurrent Reload --kind on \(Self.requests) connections for "
              + "\(Self.widgetCount) widgets, all answered in " + String(format: "%.2f s", answeredIn)
              + "; decisions \(decided); \(inFlightDuringBurst) runs in flight during it; then \(runs) runs "
              + "(max per widget \(runsPerWidget.values.max() ?? 0)), overlaps \(overlaps.count)")
    }
}
