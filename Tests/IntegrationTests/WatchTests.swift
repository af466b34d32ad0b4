import Foundation
import Testing
import WidgetProtocol
import WidgetSchedulerTestKit

/// `widgetctl watch --json` on a timeline with entries one second apart: each entry change arrives at its date. The
/// daemon and the watch client run under SCHED_FIFO, as a host showing widgets would, so that the other tests
/// running in parallel on two cores do not count as the daemon's lateness.
@Suite("Watch delivers entry changes on time")
struct WatchTests {
    static let entryCount = 4

    /// How late an entry change may arrive: 50 ms with the daemon and the client under SCHED_FIFO, else 1 s.
    static func latenessBound(_ world: DaemonWorld, _ watch: StreamingCommand) -> Double {
        world.latenessBound(0.050, else: 1, refusals: watch.realTimeRefusals, in: "WatchTests")
    }

    @Test("entry changes reach `widgetctl watch --json` within 50 ms of their dates")
    func entryChangesArriveWithinFiftyMilliseconds() throws {
        // A developer kind: explicit reloads run at once, so probing the stream costs no waiting.
        let world = try DaemonWorld(config: #"developer-kinds = ["ticker"]"# + "\n", realTime: true)
        try world.addScriptedKind("ticker")
        try world.start()
        let id = try world.add("ticker")
        try world.waitUntilIdle(id)

        let watch = try world.streamWidgetctl(["watch", id, "--json"])
        // The stream only carries what happens after it is open: reload until the first event shows it is.
        _ = try eventually("the watch stream to carry events", timeout: 10, interval: 0.2) { () -> Bool? in
            if !watch.lines.isEmpty { return true }
            _ = try world.widgetctlSucceeding("reload", id)
            return nil
        }
        try world.waitUntilIdle(id)

        let offsets = (1...Self.entryCount).map(Double.init)
        try world.setBehaviour(ScriptedProvider.Behaviour(entryOffsets: offsets), for: "ticker")
        let asked = Date()
        let reply = try world.widgetctlSucceeding("reload", id, "--json").decoded(ReloadMethod.Reply.self)
        #expect(reply.decisions.map(\.decision) == [.ran])

        let decoder = VarlinkCoding.makeDecoder()
        let changes = try eventually("\(Self.entryCount) entry changes", timeout: Double(Self.entryCount) + 5) {
            () -> [(event: WatchEvent, readAt: Date)]? in
            let events = try watch.lines.map { line in
                (event: try decoder.decode(WatchEvent.self, from: Data(line.text.utf8)), readAt: line.readAt)
            }
            let changes = events.filter { $0.event.event == .entryChanged && $0.event.date > asked }
            return changes.count >= Self.entryCount ? changes : nil
        }
        #expect(changes.count == Self.entryCount, "one change per entry")
        #expect(changes.map { $0.event.content?.objectValue?["n"] } == offsets.indices.map { .integer(Int64($0)) })
        let gaps = zip(changes.dropFirst(), changes).map { $0.event.date.timeIntervalSince($1.event.date) }
        #expect(gaps.allSatisfy { abs($0 - 1) < 0.001 }, "entries one second apart: \(gaps)")

        let lateness = changes.map { $0.readAt.timeIntervalSince($0.event.date) }
        let sorted = lateness.sorted()
        print("watch lateness (ms): " + lateness.map { String(format: "%.1f", $0 * 1_000) }.joined(separator: " ")
            + String(format: "; p50 %.1f, max %.1f", sorted[sorted.count / 2] * 1_000, (sorted.last ?? 0) * 1_000))
        let bound = Self.latenessBound(world, watch)
        for value in lateness {
            #expect(value >= -0.001, "an entry change is never announced before its date: \(value) s")
            #expect(value <= bound, "an entry change arrives within \(bound) s of its date: \(value) s late")
        }
        let finished = watch.lines.compactMap { try? decoder.decode(WatchEvent.self, from: Data($0.text.utf8)) }
            .filter { $0.event == .runFinished && $0.date > asked }
        #expect(finished.first?.outcome == "success")
        #expect(finished.first?.reason == "explicit")
    }

    @Test("after a kill -9 and a restart, the saved timeline's entry changes still arrive at their dates")
    func entryChangesAfterRestart() throws {
        // A second, developer kind gives events to probe the stream with, leaving the ticker's timeline alone.
        let world = try DaemonWorld(config: #"developer-kinds = ["probe"]"# + "\n", realTime: true)
        try world.addScriptedKind("ticker", behaviour: ScriptedProvider.Behaviour(entryOffsets: [0, 2, 3]))
        try world.addScriptedKind("probe")
        try world.start()
        let ticker = try world.add("ticker")
        let probe = try world.add("probe")
        let saved = try world.waitUntilIdle(ticker)
        try world.waitUntilIdle(probe)
        // The kill must not take the timeline: a restart would run the provider again, with a later start.
        try world.waitUntilStateWritten()
        world.stopDaemon()
        try world.start()

        let watch = try world.streamWidgetctl(["watch", "--json"])
        _ = try eventually("the watch stream to carry events", timeout: 10, interval: 0.1) { () -> Bool? in
            if !watch.lines.isEmpty { return true }
            _ = try world.widgetctlSucceeding("reload", probe)
            return nil
        }
        let decoder = VarlinkCoding.makeDecoder()
        let changes = try eventually("the two later entries", timeout: 6) { () -> [(WatchEvent, Date)]? in
            let changes = try watch.lines.map { line in
                (try decoder.decode(WatchEvent.self, from: Data(line.text.utf8)), line.readAt)
            }.filter { $0.0.event == .entryChanged && $0.0.widget == ticker }
            return changes.count >= 2 ? changes : nil
        }
        #expect(changes.map { $0.0.content?.objectValue?["n"] } == [.integer(1), .integer(2)])
        let start = try #require(saved.currentEntry?.date)
        let offsets = changes.map { $0.0.date.timeIntervalSince(start) }
        #expect(offsets.count == 2 && abs(offsets[0] - 2) < 0.001 && abs(offsets[1] - 3) < 0.001, "\(offsets)")
        let bound = Self.latenessBound(world, watch)
        for (event, readAt) in changes {
            let lateness = readAt.timeIntervalSince(event.date)
            #expect(lateness >= -0.001 && lateness <= bound, "\(event.date): \(lateness) s late")
        }
        #expect(try world.summary(ticker).currentEntry?.content.objectValue?["n"] == .integer(2))
    }
}
