import Foundation
import GRDB
import Testing
import WidgetProtocol
import WidgetProviders
import WidgetSchedulerCore
@testable import WidgetSchedulerRuntime
import WidgetSchedulerTestKit

/// A hand-edited or damaged `state.sqlite`: every number read back is checked as every other input is. A value out
/// of range is refused with an error naming the widget (or row) and the field, the part it belongs to is dropped as
/// an unreadable one is, and every query still answers.
@Suite("Stored values out of range")
struct StoredRangeTests {
    /// One hand edit of the store and the error it must produce.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        /// The edit: SQL with its arguments, made from the widget's stored schedule blob.
        var edit: @Sendable (_ schedule: PersistedWidgetState) -> (sql: String, arguments: StatementArguments)
        /// Text the journal's error or warning about it must hold.
        var logged: [String]

        var testDescription: String { name }
    }

    static let manifest = ProviderManifest(
        path: "/etc/widget-scheduler/providers/clock.toml", exec: ["/usr/lib/widget-providers/clock"],
        widgets: [WidgetKindManifest(kind: "clock")])

    static func schedule(_ change: @escaping @Sendable (inout PersistedWidgetState) -> Void)
        -> @Sendable (PersistedWidgetState) -> (sql: String, arguments: StatementArguments)
    {
        { stored in
            var stored = stored
            change(&stored)
            return ("UPDATE widget_schedule SET state = ? WHERE widgetID = 'w1'", [stored.encoded()])
        }
    }

    static let cases: [Case] = [
        Case(name: "an added date of 1e300 s", edit: { _ in ("UPDATE widget SET addedAt = 1e300", []) },
             logged: ["widget w1: its stored addedAt is ", "not a date from 1970-01-01T00:00:00Z"]),
        Case(name: "a budget of NaN tokens",
             edit: schedule { $0.schedule.budget = RefreshBudget(tokens: .nan, stamp: 0) },
             logged: ["widget w1: its stored schedule is unreadable (budget.tokens is nan, not a number ≥ 0)"]),
        Case(name: "a last run start of 1e300 s", edit: schedule { $0.schedule.lastRunStart = 1e300 },
             logged: ["widget w1: its stored schedule is unreadable (lastRunStart is 1e+300, not a monotonic reading"]),
        Case(name: "Int.max consecutive failures", edit: schedule { $0.schedule.consecutiveFailures = .max },
             logged: ["(consecutiveFailures is 9223372036854775807, not a count from 0 to 2147483647)"]),
        Case(name: "a current entry dated 1e17 s", edit: schedule {
                 $0.schedule.currentEntry = TimelineOutline.Entry(date: Date(timeIntervalSince1970: 1e17))
             },
             logged: ["(currentEntry.date is 1e+17 s after 1970, not a date from 1970-01-01T00:00:00Z"]),
        Case(name: "a current relevance of 1e17 s", edit: schedule {
                 $0.schedule.currentEntry = TimelineOutline.Entry(
                     date: Date(timeIntervalSince1970: 1_767_600_000),
                     relevance: TimelineEntryRelevance(score: 1, duration: 1e17))
             },
             logged: ["(currentEntry.relevance.duration is 1e+17, not a number of seconds from 0"]),
        Case(name: "a greatest score of 1e300", edit: schedule { $0.schedule.maxRelevanceScore = 1e300 },
             logged: ["(maxRelevanceScore is 1e+300, not a finite number within ±3.4028235e+38)"]),
        Case(name: "an outline dated 1e17 s", edit: { _ in
                 let outline = TimelineOutline(dates: [Date(timeIntervalSince1970: 1e17)], relevances: [],
                                               policy: .never)
                 return ("UPDATE timeline SET outline = ?", [outline?.compactEncoded()])
             },
             logged: ["widget w1: its stored timeline is unreadable (entries[0].date is 1e+17 s after 1970"]),
        Case(name: "a stored timeline's relevance of 1e17 s", edit: { _ in
                 let timeline = Timeline(entries: [TimelineEntry(
                     date: Date(timeIntervalSince1970: 1_767_600_000),
                     relevance: TimelineEntryRelevance(score: 1, duration: 1e17), content: "1")], policy: .never)
                 return ("UPDATE timeline SET outline = NULL, timeline = ?", [timeline.storedJSON()])
             },
             logged: ["widget w1: its stored timeline is unreadable (entries[0].relevance.duration is 1e+17"]),
        Case(name: "a stored after date of 1e300 s", edit: { _ in
                 let outline = TimelineOutline(dates: [Date(timeIntervalSince1970: 1_767_600_000)], relevances: [],
                                               policy: .after(Date(timeIntervalSince1970: 1e300)))
                 return ("UPDATE timeline SET outline = ?", [outline?.compactEncoded()])
             },
             logged: ["its stored timeline is unreadable (policy.after is 1e+300 s after 1970"]),
        Case(name: "a widget number past Int.max's reach",
             edit: { _ in ("UPDATE meta SET value = '9223372036854775807' WHERE key = 'nextWidgetNumber'", []) },
             logged: ["the stored nextWidgetNumber \"9223372036854775807\" is not a number from 1 to"]),
        Case(name: "a clock stamp of 1e300 s",
             edit: { _ in ("UPDATE meta SET value = 'boot 1e300 nan' WHERE key = 'clock'", []) },
             logged: ["the stored clock stamp \"boot 1e300 nan\" (meta clock) is not a boot id"]),
        Case(name: "a history line at 1e300 s",
             edit: { _ in ("UPDATE history SET at = 1e300", []) },
             logged: ["w1: cannot read its run history: state database row history[",
                      "is unreadable: at is 1e+300 s after 1970"]),
    ]

    @Test("the value is refused naming the widget and field; the widget stays and every query answers",
          arguments: cases)
    func outOfRangeValueIsRefused(_ bad: Case) throws {
        let directory = try StateTestFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = ManualDaemonClock()
        do {
            let (service, store, launcher, _) = try Self.service(directory, clock: clock)
            var added: Result<String, ControlError>?
            service.add(kind: "clock", family: nil, parameters: [:]) { added = $0 }
            #expect(try #require(added).get() == "w1")
            let now = clock.now().wall
            launcher.launches[0].succeed(Timeline(entries: [
                TimelineEntry(date: now, relevance: TimelineEntryRelevance(score: 2, duration: 60), content: "1"),
                TimelineEntry(date: now.addingTimeInterval(120), content: "2"),
            ], policy: .atEnd))
            service.flush()
            let blob = try #require(try store.storedWidget(id: "w1")?.schedule?.state)
            let edit = bad.edit(try PersistedWidgetState(decoding: blob))
            try store.databaseQueue.write { db in try db.execute(sql: edit.sql, arguments: edit.arguments) }
            try store.close()
        }
        let (service, _, _, journal) = try Self.service(directory, clock: clock)
        clock.clock.advance(by: 30)
        service.tick()
        #expect(service.list().map(\.id) == ["w1"])
        _ = service.status(version: "test")
        _ = try service.timeline(id: "w1")
        _ = try service.stack(ids: nil)
        _ = try service.budget(id: nil, kind: nil)
        let lines = journal.entries.filter { $0.level >= .warning }.map(\.message)
        #expect(lines.contains { line in bad.logged.allSatisfy(line.contains) }, "\(lines)")
        var added: Result<String, ControlError>?
        service.add(kind: "clock", family: nil, parameters: [:]) { added = $0 }
        #expect(try #require(added).get() == "w2")
    }

    @Test("a run-start journal sequence past 2^63 stops the store from opening, naming the meta row")
    func runStartSequenceOutOfRangeIsRefused() throws {
        let directory = try StateTestFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let store = try StateStore(directory: directory)
            try store.databaseQueue.write { db in
                try db.execute(sql: "INSERT INTO meta (key, value) VALUES ('runStartJournal', '18446744073709551615')")
            }
            try store.close()
        }
        #expect(throws: StateStoreError.corruptRow(
            table: "meta", key: "runStartJournal",
            reason: "value \"18446744073709551615\" is not a sequence number below 2^63")) {
            _ = try StateStore(directory: directory)
        }
    }

    @Test("a group value stamped 1e300 s is refused naming the group, key and field")
    func groupValueOutOfRangeIsRefused() throws {
        let directory = try StateTestFixtures.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try StateStore(directory: directory)
        try store.databaseQueue.write { db in
            try db.execute(sql: """
                INSERT INTO group_data ("group", key, value, updatedAt) VALUES ('weather', 'location', 'Oslo', 1e300)
                """)
        }
        let expected = StateStoreError.corruptRow(
            table: "group_data", key: "weather/location",
            reason: "updatedAt is 1e+300 s after 1970, not a date from 1970-01-01T00:00:00Z to "
                + "9999-12-31T23:59:59.999Z")
        #expect(throws: expected) { _ = try store.groupValue(group: "weather", key: "location") }
        #expect(throws: expected) { _ = try store.groupData(group: "weather") }
    }

    static func service(_ directory: URL, clock: ManualDaemonClock) throws
        -> (WidgetService, StateStore, FakeProviderLauncher, RecordingLogHandler.Journal)
    {
        let store = try StateStore(directory: directory)
        let launcher = FakeProviderLauncher()
        let journal = RecordingLogHandler.Journal()
        let service = WidgetService(
            options: WidgetService.Options(stateDirectory: directory, socketPath: "/run/test.socket"),
            settings: SchedulerSettings(), manifests: ManifestSet(manifests: [manifest]), clock: clock,
            launcher: launcher, timer: FakeWakeupTimer(), store: store, logger: RecordingLogHandler.logger(journal))
        try service.load()
        return (service, store, launcher, journal)
    }
}
