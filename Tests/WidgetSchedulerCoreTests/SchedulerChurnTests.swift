import Foundation
import Testing
import WidgetSchedulerCore
import WidgetSchedulerCoreTestKit

/// Widgets added and removed at random among running ones: every removal moves the scheduler's last widget into the
/// removed one's place, and with it that widget's deadline and its turn for a slot. None may be lost.
struct SchedulerChurnTests {
    /// What the scheduler was told and did, for the checks.
    struct Record {
        var live: Set<String> = []
        var inFlight: Set<String> = []
        var started: Set<String> = []
        /// Each live widget's entry still to come, and the entries announced.
        var awaited: [String: Date] = [:]
        var announced: [String: Set<Date>] = [:]

        mutating func note(_ actions: [SchedulerAction]) {
            for action in actions {
                switch action {
                case .startRun(let id, _):
                    #expect(live.contains(id), "\(id) started after its removal")
                    inFlight.insert(id)
                    started.insert(id)
                case .entryChanged(let id, let entry):
                    announced[id, default: []].insert(entry.date)
                default:
                    break
                }
            }
        }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func randomAddsAndRemovesLoseNoWidgetsRunOrEntry(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var harness = SchedulerHarness(SchedulerSettings(maxConcurrentRuns: 2))
        var record = Record()
        var added = 0
        var t = 0.0
        for _ in 0..<1_500 {
            t += 1
            let roll = Int.random(in: 0..<10, using: &generator)
            if record.live.isEmpty || roll < 3 {
                added += 1
                let id = "w\(added)"
                record.live.insert(id)
                record.note(harness.at(t, .widgetAdded(id: id, kind: "k")))
            } else if roll < 5 {
                let id = record.live.randomElement(using: &generator)!
                record.live.remove(id)
                record.inFlight.remove(id)
                record.awaited[id] = nil
                record.note(harness.at(t, .widgetRemoved(id: id)))
            } else if roll < 8, let id = record.inFlight.randomElement(using: &generator) {
                let later = Double(Int.random(in: 2..<40, using: &generator))
                record.inFlight.remove(id)
                record.awaited[id] = harness.wall(t + later)
                record.note(harness.succeed(id, at: t, entries: [0, later]))
            } else {
                record.note(harness.tick(t))
            }
            #expect(harness.scheduler.runningCount == record.inFlight.count)
            #expect(record.inFlight.count <= 2)
        }
        // Every run ends; every widget's queued first run then starts, and every entry comes at its date.
        while let id = record.inFlight.first {
            t += 1
            record.inFlight.remove(id)
            record.awaited[id] = nil
            record.note(harness.succeed(id, at: t))
        }
        t += 100
        record.note(harness.tick(t))
        let neverStarted = record.live.subtracting(record.started).sorted()
        #expect(neverStarted.isEmpty)
        for (id, date) in record.awaited {
            #expect(record.announced[id]?.contains(date) == true, "\(id)'s entry at \(date) was never announced")
        }
        #expect(harness.scheduler.nextWakeup() == nil)
    }
}
