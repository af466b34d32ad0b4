import Foundation
import Testing
import WidgetSchedulerCore

@testable import WidgetSchedulerRuntime

/// Issue 29 §5: a state database that lost widgets or commits is found at start (`StateLoss`), and the store refuses
/// to open it unless told to accept the loss.
@Suite("State loss")
struct StateLossTests {
    /// A journal record of `id` with a run for `reason` in flight, numbered `sequence`.
    static func record(_ sequence: UInt64, _ id: String, running reason: RunReason?) -> RunStartJournal.Record {
        var schedule = WidgetSchedule(id: id, kind: "k", budget: RefreshBudget(tokens: 1, stamp: 0))
        schedule.inFlight = reason.map { WidgetSchedule.RunInFlight(reason: $0, startedAt: 10) }
        let state = PersistedWidgetState(schedule: schedule, lastRun: nil, currentContent: nil).encoded()
        return RunStartJournal.Record(sequence: sequence, schedule: WidgetScheduleRecord(
            widgetID: id, state: state, nextDue: nil, quarantined: false))
    }

    struct JournalCase: CustomTestStringConvertible, Sendable {
        var name: String
        var applied: UInt64
        var first: UInt64?
        var pending: [RunStartJournal.Record]
        var held: Set<String>
        /// A fragment of the evidence, nil when there is no loss.
        var evidence: String?
        var testDescription: String { name }
    }

    static let journalCases: [JournalCase] = [
        JournalCase(name: "an empty journal", applied: 0, first: nil, pending: [], held: [], evidence: nil),
        JournalCase(name: "every record covered", applied: 7, first: 3, pending: [], held: [], evidence: nil),
        JournalCase(name: "the journal begins right after the commits", applied: 7, first: 8,
                    pending: [record(8, "w1", running: .policy)], held: ["w1"], evidence: nil),
        JournalCase(name: "the journal begins past the commits", applied: 0, first: 120,
                    pending: [record(120, "w1", running: .policy)], held: [],
                    evidence: "begins at run start 120, but the database's commits cover run starts only up to 0"),
        JournalCase(name: "a later run of a widget the database lacks", applied: 0, first: 1,
                    pending: [record(1, "w1", running: .initial), record(2, "w1", running: .explicit),
                              record(3, "w2", running: .retry)], held: [],
                    evidence: "holds later runs of widgets w1, w2, which the database lacks"),
        JournalCase(name: "only the first run of a widget whose add was never committed", applied: 4, first: 1,
                    pending: [record(5, "w9", running: .initial)], held: [], evidence: nil),
        JournalCase(name: "a record whose schedule cannot be read proves nothing", applied: 0, first: 1,
                    pending: [RunStartJournal.Record(sequence: 1, schedule: WidgetScheduleRecord(
                        widgetID: "w1", state: Data("?".utf8), nextDue: nil, quarantined: false))],
                    held: [], evidence: nil),
        JournalCase(name: "a later run of a widget the database holds", applied: 0, first: 1,
                    pending: [record(1, "w1", running: .policy)], held: ["w1"], evidence: nil),
    ]

    @Test("the run-start journal's evidence", arguments: journalCases)
    func journalEvidence(_ example: JournalCase) {
        let loss = StateLoss.inRunStartJournal(
            databasePath: "/s/state.sqlite", journalPath: "/s/state.sqlite-runstarts", applied: example.applied,
            first: example.first, pending: example.pending, databaseHolds: example.held.contains)
        if let evidence = example.evidence {
            #expect(loss?.path == "/s/state.sqlite")
            #expect(loss?.evidence.hasPrefix("/s/state.sqlite-runstarts ") == true, "\(String(describing: loss))")
            #expect(loss?.evidence.contains(evidence) == true, "\(String(describing: loss))")
            #expect(loss?.description.contains("--accept-state-loss") == true)
        } else {
            #expect(loss == nil)
        }
    }

    @Test(arguments: [(3, 3, false), (3, 4, false), (3, 0, true), (1, 0, true), (0, 0, false)])
    func fewerWidgetsThanAtTheCleanStopAreALoss(atStop: Int, now: Int, lost: Bool) {
        let loss = StateLoss.sinceCleanStop(databasePath: "/s/state.sqlite", markerPath: "/s/stopped-cleanly",
                                            widgetsAtStop: atStop, widgetsNow: now)
        #expect((loss != nil) == lost)
        if let loss {
            #expect(loss.evidence.contains("/s/stopped-cleanly says it held \(atStop)"), "\(loss)")
        }
    }

    // MARK: - The store

    /// A store holding widget `w1`, whose journal records a later run of it no commit covered.
    private static func storeWithUncoveredRun(_ reason: RunReason) throws -> URL {
        let directory = try StateTestFixtures.makeDirectory()
        let store = try StateStore(directory: directory)
        var batch = StateBatch()
        batch.upsertWidget(StateTestFixtures.widget("w1"))
        try store.apply(batch)
        try store.recordRunStarts([record(0, "w1", running: reason).schedule])
        try store.close()
        return directory
    }

    /// Empties the database file and removes its WAL, as a file put back from nothing would be.
    private static func emptyDatabase(in directory: URL) {
        let path = directory.appendingPathComponent(StateStore.fileName).path
        _ = truncate(path, 0)
        for suffix in ["-wal", "-shm"] { unlink(path + suffix) }
    }

    @Test func anEmptiedDatabaseWithALaterRunInTheJournalIsRefusedUnlessTheLossIsAccepted() throws {
        let directory = try Self.storeWithUncoveredRun(.policy)
        Self.emptyDatabase(in: directory)
        let refusal = #expect(throws: StateStoreError.self) { try StateStore(directory: directory) }
        guard case .stateLost(let loss)? = refusal else {
            Issue.record("expected stateLost, got \(String(describing: refusal))")
            return
        }
        #expect(loss.evidence.contains("widget w1"), "\(loss)")
        #expect(loss.path == directory.appendingPathComponent(StateStore.fileName).path)
        // The refusal changed nothing: refused again, then accepted, and after that the evidence is covered.
        #expect(throws: StateStoreError.self) { try StateStore(directory: directory) }
        let accepted = try StateStore(directory: directory, options: StateStoreOptions(acceptStateLoss: true))
        #expect(accepted.acceptedStateLoss?.evidence.contains("widget w1") == true)
        #expect(try accepted.widgetCount() == 0)
        try accepted.close()
        let next = try StateStore(directory: directory)
        #expect(next.acceptedStateLoss == nil)
        try next.close()
    }

    @Test func anEmptiedDatabaseWhoseJournalHoldsOnlyAFirstRunOpens() throws {
        let directory = try Self.storeWithUncoveredRun(.initial)
        Self.emptyDatabase(in: directory)
        let store = try StateStore(directory: directory)
        #expect(store.acceptedStateLoss == nil)
        try store.close()
    }

    @Test func aJournalThatBeginsPastTheDatabasesCommitsIsRefused() throws {
        let directory = try StateTestFixtures.makeDirectory()
        let store = try StateStore(directory: directory)
        var batch = StateBatch()
        batch.upsertWidget(StateTestFixtures.widget("w1"))
        try store.apply(batch)
        // Enough covered records that the journal is emptied once, then one more: it begins past record 1.
        let big = String(repeating: "x", count: 1000)
        var turns = 0
        let journal = directory.appendingPathComponent(StateStore.fileName + StateStore.runStartJournalSuffix).path
        repeat {
            turns += 1
            let schedule = WidgetScheduleRecord(widgetID: "w1", state: Data("\(turns) \(big)".utf8), nextDue: nil,
                                                quarantined: false)
            try store.recordRunStarts([schedule])
            var covering = StateBatch()
            covering.upsertSchedule(schedule)
            try store.apply(covering)
        } while (try FileManager.default.attributesOfItem(atPath: journal)[.size] as? Int) != 0 && turns < 1000
        try store.recordRunStarts([Self.record(0, "w1", running: .initial).schedule])
        try store.close()
        Self.emptyDatabase(in: directory)

        let refusal = #expect(throws: StateStoreError.self) { try StateStore(directory: directory) }
        guard case .stateLost(let loss)? = refusal else {
            Issue.record("expected stateLost, got \(String(describing: refusal))")
            return
        }
        #expect(loss.evidence.contains("begins at run start \(turns + 1)"), "\(loss)")
    }
}
