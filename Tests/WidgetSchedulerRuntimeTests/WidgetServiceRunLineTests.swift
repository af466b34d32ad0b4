import Foundation
import Testing
import WidgetProtocol
import WidgetProviders
import WidgetSchedulerCore
@testable import WidgetSchedulerRuntime
import WidgetSchedulerTestKit

/// A widget running again and again before the state is written (a developer-mode kind's provider looping) gets two
/// run lines a write, not one a run, and as many history lines, which count the runs they stand for; every run keeps
/// its `runFinished` event.
struct WidgetServiceRunLineTests {
    /// A harness with the clock kind in developer mode (no floor, no budget), quick runs, and a `Watch` client.
    final class Looping {
        let harness: WidgetServiceHarness
        var events: [WatchEvent] = []
        let id: String

        init() throws {
            harness = try WidgetServiceHarness(settings: SchedulerSettings(maxConcurrentRuns: 4,
                                                                           developerKinds: ["clock"]))
            harness.launcher.quickRuns = true
            id = try harness.addWidget(kind: "clock")
            _ = harness.service.watch(WatchMethod.Parameters()) { [unowned self] event in
                if event.event == .runFinished { events.append(event) }
                return true
            }
        }

        /// Answers the run in flight with an entry dated now and `atEnd`, which makes the widget due again at once.
        func answer(stderr: String = "") throws {
            let launch = try #require(harness.launcher.inFlight.last)
            launch.complete(.success(.timeline(harness.timeline([0], policy: .atEnd)), stderrTail: stderr))
        }

        /// The run lines (started, finished, failed) in the order written.
        var runLines: [RecordingLogHandler.Entry] {
            let ids: Set = [JournalMessageID.runStarted.rawValue, JournalMessageID.runFinished.rawValue,
                            JournalMessageID.runFailed.rawValue]
            return harness.journal.entries.filter { ids.contains($0.fields[JournalField.messageID] ?? "") }
        }
    }

    @Test func runsBeforeAStateWriteAreFoldedIntoTheLastOnesLineWrittenWithTheState() throws {
        let looping = try Looping()
        for _ in 1...5 { try looping.answer() }
        #expect(looping.runLines.count == 1)
        let pids = looping.harness.launcher.launches.map(\.pid)

        looping.harness.service.flush()
        let lines = looping.runLines
        #expect(lines.count == 2)
        #expect(lines.first?.fields[JournalField.providerPID] == String(pids[0]))
        #expect(lines.first?.fields[JournalField.runsFolded] == nil)
        let folded = try #require(lines.last)
        #expect(folded.fields[JournalField.messageID] == JournalMessageID.runFinished.rawValue)
        #expect(folded.fields[JournalField.providerPID] == String(pids[4]))
        #expect(folded.fields[JournalField.runsFolded] == "3")
        #expect(folded.fields[JournalField.policy] == "atEnd")
        #expect(folded.message == "\(looping.id): clock provider answered 1 entries, policy atEnd; "
                + "3 earlier successful runs folded into this line")
        // The history lines fold with the journal's, and count the same runs; every run has its event.
        let history = looping.harness.store.history.filter { $0.widgetID == looping.id && $0.event == .run }
        #expect(history.map(\.runs) == [1, 4])
        #expect(history.last?.at == looping.harness.clock.now().wall)
        #expect(looping.events.count == 5)
    }

    @Test func theBudgetLedgerCountsFoldedRunsBeforeAndAfterTheirLineIsWritten() throws {
        let looping = try Looping()
        for _ in 1...6 { try looping.answer() }
        // Six runs answered (the first with its line, five folded into one not yet written) and the seventh running.
        let before = try #require(try looping.harness.service.budget(id: looping.id, kind: nil).first)
        #expect(before.runs.map(\.outcome) == ["success", "success", "running"])
        #expect(before.runs.map(\.runCount) == [1, 5, 1])
        #expect(before.budgetedRuns24h + before.exemptRuns24h == 7)

        looping.harness.service.flush()
        let after = try #require(try looping.harness.service.budget(id: looping.id, kind: nil).first)
        #expect(after.runs.map(\.count) == [nil, 5, nil])
        #expect(after.budgetedRuns24h + after.exemptRuns24h == 7)
    }

    @Test func theRunAfterAStateWriteGetsItsLineAtOnce() throws {
        let looping = try Looping()
        try looping.answer()
        try looping.answer()
        looping.harness.service.flush()
        #expect(looping.runLines.count == 2)
        #expect(looping.runLines.last?.fields[JournalField.runsFolded] == nil)
        try looping.answer()
        #expect(looping.runLines.count == 3)
        looping.harness.service.flush()
        #expect(looping.runLines.count == 3)
    }

    @Test func aFailureWritesTheKeptLineFirstSoTheJournalKeepsTheRunsOrder() throws {
        let looping = try Looping()
        for _ in 1...3 { try looping.answer() }
        try #require(looping.harness.launcher.inFlight.last).fail(.exit, detail: "exit status 3")
        let lines = looping.runLines
        #expect(lines.map { $0.fields[JournalField.messageID] } == [
            JournalMessageID.runFinished.rawValue, JournalMessageID.runFinished.rawValue,
            JournalMessageID.runFailed.rawValue,
        ])
        #expect(lines[1].fields[JournalField.runsFolded] == "1")
        #expect(lines[1].fields[JournalField.providerPID] == String(looping.harness.launcher.launches[2].pid))
        looping.harness.service.flush()
        #expect(looping.runLines.count == 3)
    }

    @Test func aRunSayingSomethingNewOnStderrIsWrittenAtOnceAndRunsSayingTheSameFoldIntoIt() throws {
        let looping = try Looping()
        try looping.answer()
        try looping.answer()
        try looping.answer(stderr: "warning: stale cache\n")
        var lines = looping.runLines
        #expect(lines.count == 3)
        #expect(lines[1].fields[JournalField.runsFolded] == nil)
        #expect(lines[1].message.hasSuffix("policy atEnd"))
        #expect(lines[2].message.hasSuffix("; stderr: warning: stale cache"))
        // A provider printing the same warning every run (a deprecation, say) does not flood the journal either.
        for _ in 1...4 { try looping.answer(stderr: "warning: stale cache\n") }
        #expect(looping.runLines.count == 3)
        looping.harness.service.flush()
        lines = looping.runLines
        #expect(lines.count == 4)
        #expect(lines[3].fields[JournalField.runsFolded] == "3")
        #expect(lines[3].message.hasSuffix(
            "3 earlier successful runs folded into this line; stderr: warning: stale cache"))
    }

    @Test func aSlowRunsStartLineComesAfterTheKeptLineOfTheRunsBeforeIt() throws {
        let looping = try Looping()
        try looping.answer()
        try looping.answer()
        looping.harness.launcher.quickRuns = false
        try looping.answer()
        let lines = looping.runLines
        // Run 3 was folded; run 4, which lasts, takes it out before its "running" line.
        #expect(lines.map { $0.fields[JournalField.messageID] } == [
            JournalMessageID.runFinished.rawValue, JournalMessageID.runFinished.rawValue,
            JournalMessageID.runStarted.rawValue,
        ])
        #expect(lines[1].fields[JournalField.runsFolded] == "1")
        #expect(lines[1].fields[JournalField.providerPID] == String(looping.harness.launcher.launches[2].pid))
        #expect(lines[2].fields[JournalField.providerPID] == String(looping.harness.launcher.launches[3].pid))
    }

    @Test func aReloadDecisionComesAfterTheKeptLineOfTheRunsBeforeIt() throws {
        let looping = try Looping()
        for _ in 1...3 { try looping.answer() }
        _ = try looping.harness.service.reload(.widgets([looping.id]), foreground: false)
        let decided = JournalMessageID.requestDecided.rawValue
        let lines = looping.harness.journal.entries.filter {
            $0.fields[JournalField.widgetID] == looping.id
                && [JournalMessageID.runFinished.rawValue, decided].contains($0.fields[JournalField.messageID] ?? "")
        }
        #expect(lines.map { $0.fields[JournalField.messageID] } == [
            JournalMessageID.runFinished.rawValue, JournalMessageID.runFinished.rawValue, decided,
        ])
        #expect(lines[1].fields[JournalField.runsFolded] == "1")
        looping.harness.service.flush()
        let history = looping.harness.store.history.filter { $0.widgetID == looping.id }
        #expect(history.map(\.event) == [.run, .run, .decision])
        #expect(history.map(\.runs) == [1, 2, 1])
    }

    @Test func aRemovedWidgetsKeptLineIsStillWrittenWithTheState() throws {
        let looping = try Looping()
        for _ in 1...3 { try looping.answer() }
        try looping.harness.service.remove(id: looping.id)
        looping.harness.service.flush()
        let finished = looping.runLines.filter {
            $0.fields[JournalField.messageID] == JournalMessageID.runFinished.rawValue
        }
        #expect(finished.count == 2)
        #expect(finished.last?.fields[JournalField.runsFolded] == "1")
        #expect(finished.last?.fields[JournalField.widgetKind] == "clock")
    }
}
