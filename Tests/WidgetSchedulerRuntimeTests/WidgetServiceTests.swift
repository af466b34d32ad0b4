import Foundation
import Testing
import WidgetProtocol
import WidgetProviders
import WidgetSchedulerCore
@testable import WidgetSchedulerRuntime
import WidgetSchedulerTestKit

/// The daemon's logic against fakes: what it launches, answers, persists, logs and streams.
struct WidgetServiceTests {
    @Test func addingAWidgetLaunchesItsInitialTimelineRequest() throws {
        let harness = try WidgetServiceHarness()
        let id = try harness.addWeatherWidget()
        let launch = try #require(harness.launcher.launches.last)
        let request = launch.invocation.request
        #expect(id == "w1")
        #expect(request.request == .timeline)
        #expect(request.widget?.configuration == ["location": .string("Paris"), "units": .string("metric")])
        #expect(request.context.reason == .initial)
        #expect(request.context.dataDirectory == harness.directory.appendingPathComponent("groups/weather").path)
        #expect(harness.journal.entries(messageID: JournalMessageID.runStarted.rawValue).count == 1)
    }

    @Test func aQuickRunHasOnlyItsEndOfRunLineWithThePidReasonAndTokensLeft() throws {
        let harness = try WidgetServiceHarness()
        harness.launcher.quickRuns = true
        let id = try harness.addWeatherWidget()
        let launch = try #require(harness.launcher.launches.last)
        #expect(harness.journal.entries(messageID: JournalMessageID.runStarted.rawValue).isEmpty)
        launch.succeed(Timeline(entries: [TimelineEntry(date: Date(timeIntervalSince1970: 0))], policy: .never))
        let finished = harness.journal.entries(messageID: JournalMessageID.runFinished.rawValue)
        #expect(finished.count == 1)
        #expect(finished.first?.fields[JournalField.providerPID] == String(launch.pid))
        #expect(finished.first?.fields[JournalField.reloadReason] == "initial")
        let tokens = try #require(harness.service.scheduler.tokens(of: id, at: harness.clock.now()))
        #expect(finished.first?.fields[JournalField.tokens] == String(format: "%.2f", tokens))
        #expect(finished.first?.message == "\(id): weather provider answered 1 entries, policy never")
    }

    @Test func eachRunsEndLineCarriesItsOwnRunsFieldsAndNoneOfTheLineBefore() throws {
        let harness = try WidgetServiceHarness()
        harness.launcher.quickRuns = true
        let failing = try harness.addWeatherWidget()
        let failedLaunch = try #require(harness.launcher.launches.last)
        failedLaunch.fail(.exit, detail: "exit status 3")
        let answering = try harness.addWeatherWidget(in: "Oslo")
        let answeredLaunch = try #require(harness.launcher.launches.last)
        answeredLaunch.succeed(harness.timeline([0], policy: .atEnd))
        let failed = try #require(harness.journal.entries(messageID: JournalMessageID.runFailed.rawValue).first)
        let finished = try #require(harness.journal.entries(messageID: JournalMessageID.runFinished.rawValue).first)
        #expect(failed.fields[JournalField.widgetID] == failing)
        #expect(failed.fields[JournalField.providerPID] == String(failedLaunch.pid))
        #expect(failed.fields[JournalField.failureReason] == "exit")
        #expect(failed.fields[JournalField.policy] == nil)
        #expect(finished.fields[JournalField.widgetID] == answering)
        #expect(finished.fields[JournalField.providerPID] == String(answeredLaunch.pid))
        #expect(finished.fields[JournalField.policy] == "atEnd")
        #expect(finished.fields[JournalField.failureReason] == nil)
    }

    @Test func missingParametersComeFromTheProviderThenTheManifest() throws {
        let harness = try WidgetServiceHarness()
        var result: Result<String, ControlError>?
        harness.service.add(kind: "weather", family: nil, parameters: [:]) { result = $0 }
        let defaults = try #require(harness.launcher.launches.last)
        #expect(defaults.invocation.request.request == .defaults)
        #expect(result == nil)
        defaults.complete(.success(.configuration(["units": .string("imperial")]), stderrTail: ""))
        let id = try #require(result).get()
        #expect(harness.service.list().first { $0.id == id }?.configuration ==
                ["location": .string("Cupertino"), "units": .string("imperial")])
    }

    @Test func aParameterWithoutAnyDefaultIsAnErrorNamingIt() throws {
        let harness = try WidgetServiceHarness()
        var result: Result<String, ControlError>?
        harness.service.add(kind: "weather", family: nil, parameters: [:]) { result = $0 }
        try #require(harness.launcher.launches.last).fail(.exit, detail: "exit status 3")
        guard case .failure(let error)? = result else {
            Issue.record("expected an error, got \(String(describing: result))")
            return
        }
        #expect(error.parameters["parameter"] == .string("units"))
        #expect(harness.service.list().isEmpty)
    }

    @Test func aRunWakeUpMayComeWithinItsCoalesceWindowAnEntryChangeMayNot() throws {
        let harness = try WidgetServiceHarness(settings: SchedulerSettings(maxConcurrentRuns: 4, coalesceWindow: 5))
        _ = try harness.addWidget()
        harness.clock.clock.advance(to: 0.5)
        // Reload due 600.5 s after the run's start (0): served at the end of its 5 s slot, 605, and sd-event may
        // move that wake-up until 605.5, the window's end for the run due at 600.5.
        harness.launcher.launches[0].succeed(Timeline(entries: [TimelineEntry(date: harness.clock.now().wall)],
                                                      policy: .after(harness.clock.now().wall.addingTimeInterval(600))))
        #expect(harness.timer.armedAt == 605)
        #expect(abs(harness.timer.accuracy - 0.5) < 1e-6)
        // An entry at 603 comes first, exactly.
        _ = try harness.service.reload(.kind("clock"), foreground: true)
        harness.launcher.launches[1].succeed(harness.timeline([0, 602.5], policy: .after(
            harness.clock.now().wall.addingTimeInterval(600))))
        #expect(harness.timer.armedAt == 603)
        #expect(harness.timer.accuracy == 0)
    }

    @Test func aReloadInsideTheFloorIsDeferredAndTheTimerArmedForIt() throws {
        let harness = try WidgetServiceHarness()
        let id = try harness.addWidget()
        harness.launcher.launches[0].succeed(harness.timeline([0]))
        harness.clock.clock.advance(to: 60)
        let decisions = try harness.service.reload(.kind("clock"), foreground: false)
        #expect(decisions.map(\.decision) == [.deferred])
        #expect(decisions.first?.because == .floor)
        #expect(decisions.first?.widget == id)
        #expect(harness.timer.armedAt == 300)
        harness.advance(to: 300)
        #expect(harness.launcher.launches.count == 2)
        #expect(harness.launcher.launches[1].invocation.request.context.reason == .explicit)
        let logged = harness.journal.entries(messageID: JournalMessageID.requestDecided.rawValue)
        #expect(logged.first?.fields["DECISION"] == "deferred")
        #expect(logged.first?.fields["BECAUSE"] == "floor")
    }

    @Test func repeatedReloadsOfAKindLogOneEntryPerRequestNotOnePerWidget() throws {
        let harness = try WidgetServiceHarness()
        let ids = try (0..<3).map { _ in try harness.addWidget() }
        for launch in harness.launcher.launches { launch.succeed(harness.timeline([0])) }
        harness.clock.clock.advance(to: 60)
        let first = try harness.service.reload(.kind("clock"), foreground: false)
        #expect(first.map(\.decision) == [.deferred, .deferred, .deferred])
        let decided = JournalMessageID.requestDecided.rawValue, unchanged = JournalMessageID.requestUnchanged.rawValue
        #expect(harness.journal.entries(messageID: decided).count == 3, "the first request plans a run for each")
        #expect(harness.journal.entries(messageID: unchanged).isEmpty)
        harness.clock.clock.advance(to: 61)
        let second = try harness.service.reload(.kind("clock"), foreground: false)
        #expect(second.map(\.widget).sorted() == ids.sorted(), "the reply still answers for every widget")
        #expect(second.map(\.decision) == [.coalesced, .coalesced, .coalesced])
        #expect(harness.journal.entries(messageID: decided).count == 3, "no entry per widget for a repeat")
        let summary = try #require(harness.journal.entries(messageID: unchanged).first)
        #expect(summary.fields["WIDGET_COUNT"] == "3")
        #expect(summary.fields["WIDGET_KIND"] == "clock")
        #expect(summary.fields["DECISION"] == "coalesced")
        harness.advance(to: 300)
        #expect(harness.launcher.launches.count == 6, "one explicit run each, whatever the number of requests")
    }

    @Test func aKindWhoseManifestComesBackHasItsQuarantinedWidgetsReloaded() throws {
        let harness = try WidgetServiceHarness(settings: SchedulerSettings(minimumInterval: 0, quarantineThreshold: 2,
                                                                           maxConcurrentRuns: 4))
        let id = try harness.addWidget()
        harness.launcher.launches[0].succeed(harness.timeline([0]))
        harness.service.replaceManifests(ManifestSet(manifests: [WidgetServiceHarness.weather]))
        for _ in 0..<4 {
            _ = try? harness.service.reload(.widgets([id]), foreground: true)
            harness.advance(to: harness.clock.clock.now.monotonic + 1)
        }
        let launched = harness.launcher.launches.count
        #expect(launched == 1, "without a manifest no provider starts")
        #expect(harness.service.list().first?.lastOutcome == "spawn")
        #expect(harness.service.list().first?.state == "quarantined")

        harness.service.replaceManifests(
            ManifestSet(manifests: [WidgetServiceHarness.weather, WidgetServiceHarness.clockKind]))
        #expect(harness.launcher.launches.count == launched + 1, "the widget runs again at once")
        #expect(harness.launcher.launches.last?.invocation.request.context.reason == .explicit)
        #expect(harness.journal.entries.contains { $0.message.contains("kind clock is served again") })
    }

    @Test func unknownKindsAndWidgetsAreNamedInTheError() throws {
        let harness = try WidgetServiceHarness()
        #expect(throws: ControlError.unknownKind("news")) {
            try harness.service.reload(.kind("news"), foreground: false)
        }
        #expect(throws: ControlError.unknownWidget("w9")) { try harness.service.remove(id: "w9") }
        #expect(throws: ControlError.unknownWidget("w9")) { try harness.service.timeline(id: "w9") }
    }

    @Test func aFailedRunKeepsTheLastGoodTimelineAndLogsItsReason() throws {
        let harness = try WidgetServiceHarness()
        let id = try harness.addWidget()
        harness.launcher.launches[0].succeed(harness.timeline([0, 600]))
        harness.clock.clock.advance(to: 400)
        _ = try harness.service.reload(.widgets([id]), foreground: false)
        harness.launcher.launches[1].fail(.timeout, detail: "no answer within 30 s")
        let summary = try #require(harness.service.list().first)
        #expect(summary.lastOutcome == "timeout")
        #expect(summary.currentEntry != nil)
        #expect(try harness.service.timeline(id: id).entries.count == 2)
        let failed = harness.journal.entries(messageID: JournalMessageID.runFailed.rawValue)
        #expect(failed.first?.fields["FAILURE_REASON"] == "timeout")
    }

    @Test func aTurnThatStartsRunsRecordsTheirSpendsWithoutACommitAndARestartLosesNothing() throws {
        let store = InMemoryStateStore()
        let clock = ManualDaemonClock()
        let first = try WidgetServiceHarness(store: store, clock: clock)
        let id = try first.addWeatherWidget(in: "Oslo")
        first.launcher.launches[0].succeed(first.timeline([0]))
        first.service.flush()
        clock.clock.advance(to: 400)
        let batchesBefore = store.appliedBatches
        let recordsBefore = store.recordedRunStarts
        _ = try first.service.reload(.kind("weather"), foreground: false)
        // The turn that starts a run records its spend once, before the provider starts, and leaves the commit to
        // the end of the turn.
        #expect(store.recordedRunStarts == recordsBefore + 1)
        #expect(store.appliedBatches == batchesBefore)
        let tokens = try #require(first.service.list().first?.tokens)
        first.service.flush()

        // The daemon dies with the explicit run in flight; a new one starts on the same state.
        clock.clock.advance(to: 401)
        let second = try WidgetServiceHarness(store: store, clock: clock)
        let restored = try #require(second.service.list().first)
        #expect(restored.id == id)
        #expect(restored.configuration == ["location": .string("Oslo"), "units": .string("metric")])
        #expect(restored.tokens <= tokens + 0.01)
        #expect(restored.nextReason == "explicit")
        #expect(restored.currentEntry != nil)
        // The interrupted run started at 400: the floor holds across the restart.
        #expect(second.launcher.launches.isEmpty)
        second.advance(to: 700)
        #expect(second.launcher.launches.count == 1)
    }

    /// A provider that kills the daemon (or crashes it) is in flight at every death: the third quarantines its widget
    /// at start, logged with its reason, and its run is not started again; the other widget, in flight at one death
    /// only, runs again. A clean stop with the run in flight counts for nothing.
    @Test func aWidgetInFlightAtThreeDaemonDeathsInARowIsQuarantinedAtStart() throws {
        let store = InMemoryStateStore()
        let clock = ManualDaemonClock()
        var harness = try WidgetServiceHarness(store: store, clock: clock)
        let killer = try harness.addWidget()
        let innocent = try harness.addWidget()
        harness.launcher.launches[1].succeed(harness.timeline([0]))
        harness.service.flush()
        for death in 1...3 {
            if death == 3 {
                // An innocent run in flight at this death only.
                clock.clock.advance(to: Double(death) * 400)
                _ = try harness.service.reload(.widgets([innocent]), foreground: false)
            }
            harness.service.flush()
            // A clean stop between two deaths, with the killer in flight, neither counts nor clears.
            if death == 2 {
                harness = try WidgetServiceHarness(store: store, clock: clock, afterDeath: false)
                #expect(harness.launcher.launches.compactMap { $0.invocation.request.widget?.id } == [killer])
                harness.service.flush()
            }
            harness = try WidgetServiceHarness(store: store, clock: clock, afterDeath: true)
            let started = harness.launcher.launches.compactMap { $0.invocation.request.widget?.id }
            if death < 3 {
                #expect(started == [killer], "death \(death): the interrupted run starts again")
                #expect(harness.journal.entries.allSatisfy { !$0.message.contains("quarantined") })
            } else {
                // The innocent's interrupted run waits for its floor, as after any restart; the killer's never comes.
                #expect(started.isEmpty)
                harness.advance(to: 1_200 + 300)
                let later = harness.launcher.launches.compactMap { $0.invocation.request.widget?.id }
                #expect(later == [innocent], "the killer is not run again; the innocent's run is")
            }
        }
        let line = try #require(harness.journal.entries.first { $0.message.contains("quarantined") })
        #expect(line.message == "\(killer): quarantined: a run of it was in flight at each of the daemon's last 3 "
            + "deaths; an explicit, foreground or configuration request lifts it")
        #expect(line.fields[JournalField.failureReason] == "daemon-died")
        #expect(line.fields["MESSAGE_ID"] == JournalMessageID.quarantined.rawValue)
        let summary = try #require(harness.service.list().first { $0.id == killer })
        #expect(summary.state == "quarantined")
        #expect(summary.lastOutcome == "daemon-died")
        // A reload gives it another try, as after any quarantine.
        _ = try harness.service.reload(.widgets([killer]), foreground: false)
        let relaunched = harness.launcher.launches.compactMap { $0.invocation.request.widget?.id }
        #expect(relaunched.contains(killer))
    }

    /// After a death every interrupted run starts again at once. One that ends before the daemon dies again has
    /// its end written with it, not when the pacer would: otherwise the next death finds it in flight still, and an
    /// innocent widget that ran beside the one killing the daemon is quarantined with it.
    @Test func anEndThatClearsADaemonDeathIsWrittenAtOnce() throws {
        let store = InMemoryStateStore()
        let clock = ManualDaemonClock()
        var harness = try WidgetServiceHarness(store: store, clock: clock)
        let widget = try harness.addWidget()
        harness.service.flush()
        harness = try WidgetServiceHarness(store: store, clock: clock, afterDeath: true)
        #expect(harness.launcher.launches.compactMap { $0.invocation.request.widget?.id } == [widget])
        harness.launcher.launches[0].succeed(harness.timeline([0]))
        #expect(!harness.service.hasUnwrittenChanges)
        // The daemon dies again before any flush of the pacer's: the run is not in flight there, nor run again.
        harness = try WidgetServiceHarness(store: store, clock: clock, afterDeath: true)
        #expect(harness.launcher.launches.isEmpty)
        #expect(harness.service.list().first { $0.id == widget }?.lastOutcome == "success")
    }

    @Test func aRunsSpentTokenIsOnDiskBeforeItsProviderStarts() throws {
        let harness = try WidgetServiceHarness()
        let id = try harness.addWidget()
        harness.launcher.launches[0].succeed(harness.timeline([0]))
        harness.service.flush()
        harness.clock.clock.advance(to: 400)
        let launchesBefore = harness.launcher.launches.count
        _ = try harness.service.reload(.widgets([id]), foreground: false)
        #expect(harness.launcher.launches.count == launchesBefore + 1)
        // No flush by the event loop yet: what a kill -9 now would leave behind must already hold the spend.
        let saved = try #require(harness.store.schedules[id])
        let schedule = try PersistedWidgetState(decoding: saved.state).schedule
        #expect(schedule.inFlight?.reason == .explicit)
        #expect(schedule.lastRunStart == 400)
    }

    @Test func onlyKindsBoundByTheFloorAndBudgetJournalTheirRunStarts() throws {
        let settings = SchedulerSettings(maxConcurrentRuns: 4, developerKinds: ["clock"])
        let harness = try WidgetServiceHarness(settings: settings)
        // A developer-mode kind has no floor or budget a kill could undo: its starts wait for the turn's write.
        _ = try harness.addWidget(kind: "clock")
        #expect(harness.launcher.launches.count == 1)
        #expect(harness.store.recordedRunStarts == 0)
        _ = try harness.addWeatherWidget(in: "Oslo")
        #expect(harness.launcher.launches.count == 2)
        #expect(harness.store.recordedRunStarts == 1)
    }

    @Test func anEntryJustDecodedGoesToWatchersAsItIsAndOneReadBackFromTheStoreIsParsedFirst() throws {
        let harness = try WidgetServiceHarness()
        var written: [String] = []
        _ = harness.service.watch(WatchMethod.Parameters()) { event in
            guard event.event == .entryChanged else { return true }
            written.append(String(decoding: event.encodedJSONObject(), as: UTF8.self))
            return true
        }
        _ = try harness.addWidget()
        // Text the decoder never leaves (a space, keys out of order) shows which way the content went.
        let start = harness.clock.now().monotonic
        harness.launcher.launches[0].succeed(harness.timeline([0, 100], content: #"{"b": 1, "a": 2}"#))
        #expect(written.count == 1)
        #expect(written.last?.contains(#""content":{"b": 1, "a": 2},"#) == true, "\(written)")
        harness.service.flush()
        harness.advance(to: start + 101)
        #expect(written.count == 2)
        #expect(written.last?.contains(#""content":{"a":2,"b":1},"#) == true, "\(written)")
    }

    @Test func anOlderTimelinesEntryIsShownUntilTheNewFirstDateAcrossARestart() throws {
        let store = InMemoryStateStore()
        let clock = ManualDaemonClock()
        let first = try WidgetServiceHarness(store: store, clock: clock)
        let id = try first.addWidget()
        first.launcher.launches[0].succeed(first.timeline([0], content: #"{"v":"old"}"#))
        first.clock.clock.advance(to: 400)
        _ = try first.service.reload(.widgets([id]), foreground: false)
        first.launcher.launches[1].succeed(first.timeline([100], content: #"{"v":"new"}"#))
        #expect(first.service.list().first?.currentEntry?.content == .object(["v": .string("old")]))
        first.service.flush()

        // The scheduler keeps no contents: the restarted daemon has the shown one from its saved state, and the
        // new timeline's from the store when its date comes.
        let second = try WidgetServiceHarness(store: store, clock: clock)
        #expect(second.service.list().first?.currentEntry?.content == .object(["v": .string("old")]))
        var seen: [JSONValue?] = []
        _ = second.service.watch(WatchMethod.Parameters(id: id)) { event in
            if event.event == .entryChanged { seen.append(event.content) }
            return true
        }
        second.advance(to: 501)
        #expect(seen == [.object(["v": .string("new")])])
        #expect(second.service.list().first?.currentEntry?.content == .object(["v": .string("new")]))
        let entries = try second.service.timeline(id: id).entries
        #expect(entries.map(\.content) == [.object(["v": .string("new")])])
        #expect(entries.map(\.current) == [true])
    }

    @Test func entriesChangingAtOneInstantAreReadFromTheStoreTogether() throws {
        // Widgets whose entries fall on the same instants (on the minute, say) change in one turn; their stored
        // timelines are read in one go, each widget still getting its own content.
        let store = InMemoryStateStore()
        let clock = ManualDaemonClock()
        let first = try WidgetServiceHarness(store: store, clock: clock)
        var ids: [String] = []
        for number in 1...3 {
            ids.append(try first.addWidget())
            first.launcher.launches[number - 1].succeed(first.timeline([0, 100], content: #"{"w":\#(number)}"#))
        }
        first.service.flush()

        let second = try WidgetServiceHarness(store: store, clock: clock)
        var seen: [String: JSONValue?] = [:]
        _ = second.service.watch(WatchMethod.Parameters()) { event in
            if event.event == .entryChanged { seen[event.widget] = event.content }
            return true
        }
        let readsBefore = store.timelineReads
        second.advance(to: 100)
        #expect(store.timelineReads == readsBefore + 1)
        #expect(seen == [ids[0]: .object(["w": .integer(1)]), ids[1]: .object(["w": .integer(2)]),
                         ids[2]: .object(["w": .integer(3)])])
    }

    @Test func aDamagedStoredTimelineIsReportedAndSparesTheWidgetsChangingWithIt() throws {
        let store = InMemoryStateStore()
        let clock = ManualDaemonClock()
        let first = try WidgetServiceHarness(store: store, clock: clock)
        let sound = try first.addWidget()
        let damaged = try first.addWidget()
        first.launcher.launches[0].succeed(first.timeline([0, 100], content: #"{"w":1}"#))
        first.launcher.launches[1].succeed(first.timeline([0, 100], content: #"{"w":2}"#))
        first.service.flush()
        // The outline still gives the entry dates; the contents' text is broken at its first entry's date.
        var record = try #require(store.timelines[damaged])
        record.timeline = #"{"entries":[{"content":"{}","date":"soon"}],"policy":{"never":{}}}"#
        var batch = StateBatch()
        batch.upsertTimeline(record)
        try store.apply(batch)

        let second = try WidgetServiceHarness(store: store, clock: clock)
        var seen: [String: JSONValue?] = [:]
        _ = second.service.watch(WatchMethod.Parameters()) { event in
            if event.event == .entryChanged { seen[event.widget] = event.content }
            return true
        }
        second.advance(to: 100)
        #expect(seen == [sound: .object(["w": .integer(1)]), damaged: .null])
        let errors = second.journal.entries.filter { $0.level == .error }.map(\.message)
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.hasPrefix("\(damaged): cannot read its stored timeline:") == true, "\(errors)")
        #expect(errors.first?.contains("date") == true, "the error names the field: \(errors)")
        #expect(second.service.list().map(\.id).sorted() == [sound, damaged].sorted())
    }

    @Test func aTimelineStoredWithoutAnOutlineIsReadFromItsJSON() throws {
        // Rows written before the store kept outlines have only the timeline's JSON.
        let store = InMemoryStateStore()
        let clock = ManualDaemonClock()
        let first = try WidgetServiceHarness(store: store, clock: clock)
        let id = try first.addWidget()
        first.launcher.launches[0].succeed(first.timeline([0, 60], content: #"{"n":1}"#))
        first.service.flush()
        var legacy = try #require(store.timelines[id])
        legacy.outline = nil
        var batch = StateBatch()
        batch.upsertTimeline(legacy)
        try store.apply(batch)

        let second = try WidgetServiceHarness(store: store, clock: clock)
        #expect(try second.service.timeline(id: id).entries.count == 2)
        #expect(second.timer.armedAt == 60)
        second.advance(to: 60)
        #expect(second.service.list().first?.currentEntry?.date == clock.now().wall)
    }

    @Test func theListReplyWrittenWidgetByWidgetIsTheReplyOfTheSummaries() throws {
        let harness = try WidgetServiceHarness()
        for number in 1...12 {
            _ = try harness.addWidget(kind: number % 2 == 0 ? "clock" : "weather",
                                      parameters: number % 2 == 0 ? [:] : ["location": .string("Oslo \"\(number)\""),
                                                                           "units": .string("metric")])
        }
        for (index, launch) in harness.launcher.launches.enumerated() {
            if index % 3 == 0 {
                launch.fail()
            } else {
                launch.succeed(harness.timeline([0, 60], content: #"{"n":\#(index),"s":"é\n"}"#))
            }
        }
        let summaries = harness.service.list()
        #expect(summaries.map(\.id) == (1...12).map { "w\($0)" })
        var written = JSONBytesWriter()
        harness.service.writeList(into: &written)
        #expect(written.bytes == ListMethod.Reply(widgets: summaries).encodedJSONObject())
    }

    @Test func watchersSeeEntryChangesAtTheirDatesAndRunResults() throws {
        let harness = try WidgetServiceHarness()
        let watch = WatchRecorder(harness.service, WatchMethod.Parameters(kind: "clock"))
        _ = try harness.addWidget()
        harness.launcher.launches[0].succeed(harness.timeline([0, 1, 2]))
        #expect(watch.events.map(\.event) == [.runFinished, .entryChanged])
        #expect(harness.timer.armedAt == 1)
        harness.advance(to: 1)
        harness.advance(to: 2)
        let entries = watch.events.filter { $0.event == .entryChanged }
        #expect(entries.count == 3)
        #expect(entries.last?.date == harness.clock.now().wall)
        #expect(entries.last?.content == .object(["t": .integer(1)]))
    }

    @Test func anAnswerThatIsNoTimelineIsToldAlikeToWatchersAndInTheHistory() throws {
        let harness = try WidgetServiceHarness()
        let watch = WatchRecorder(harness.service, WatchMethod.Parameters(kind: "clock"))
        let id = try harness.addWidget()
        harness.launcher.launches[0].complete(.success(.configuration([:]), stderrTail: ""))
        harness.service.flush()
        let finished = try #require(watch.events.first { $0.event == .runFinished })
        let line = try #require(try harness.store.history(widgetID: id, since: .distantPast).last)
        #expect(finished.outcome == "invalid" && line.outcome == "invalid")
        #expect(finished.detail == "the provider did not answer with a timeline")
        #expect(line.detail == finished.detail)
    }

    @Test func aConfigurationChangeIsValidatedAndRunsAtOnce() throws {
        let harness = try WidgetServiceHarness()
        let id = try harness.addWeatherWidget(in: "Oslo")
        harness.launcher.launches[0].succeed(harness.timeline([0]))
        #expect(throws: ControlError.self) {
            try harness.service.configure(id: id, parameters: ["units": .string("kelvin")])
        }
        #expect(throws: ControlError.self) {
            try harness.service.configure(id: id, parameters: ["colour": .string("red")])
        }
        let decision = try harness.service.configure(id: id, parameters: ["units": .string("imperial")])
        #expect(decision.decision == .ran)
        #expect(harness.launcher.launches.last?.invocation.request.context.reason == .configuration)
    }

    @Test func groupDataIsWrittenAsOneFilePerKeyWithItsTimestamp() throws {
        let harness = try WidgetServiceHarness()
        _ = try harness.addWeatherWidget(in: "Oslo")
        harness.launcher.launches[0].succeed(harness.timeline([0]))
        harness.clock.clock.advance(to: 600)
        let reply = try harness.service.dataSet(group: "weather", key: "location", value: "Paris",
                                                reloadKind: "weather")
        #expect(reply.decisions.map(\.decision) == [.ran])
        let file = try #require(harness.groupData.files["weather"]?["location"])
        let written = try #require(JSONValue(jsonText: file))
        #expect(written.objectValue?["value"] == .string("Paris"))
        #expect(written.objectValue?["updatedAt"] == .string(RFC3339.string(from: harness.clock.now().wall)))
        #expect(try harness.service.dataGet(group: "weather", key: "location").value == "Paris")
        #expect(throws: ControlError.self) { try harness.service.dataSet(group: "../etc", key: "k", value: "v",
                                                                         reloadKind: nil) }
        try harness.service.dataDelete(group: "weather", key: "location")
        #expect(harness.groupData.files["weather"]?["location"] == nil)
    }

    @Test func statusSaysWhetherChangesWaitForThePacedStateWrite() throws {
        let harness = try WidgetServiceHarness()
        _ = try harness.addWidget()
        harness.service.flush()
        #expect(!harness.service.status(version: "test").stateWritePending)
        // A run's result waits for the daemon's paced write: until it, a kill -9 would lose it.
        harness.launcher.launches[0].succeed(harness.timeline([0]))
        #expect(harness.service.status(version: "test").stateWritePending)
        harness.service.flush()
        #expect(!harness.service.status(version: "test").stateWritePending)
    }

    @Test func theStatusLineSaysWidgetsRunsAndTheNextReload() throws {
        let harness = try WidgetServiceHarness()
        _ = try harness.addWidget()
        #expect(harness.service.statusLine(at: harness.clock.now()) == "1 widget, 1 running")
        harness.launcher.launches[0].succeed(harness.timeline([0], policy: .after(harness.clock.now().wall
            .addingTimeInterval(240))))
        #expect(harness.service.statusLine(at: harness.clock.now())
                == "1 widget, 0 running, next reload clock/w1 in 5min")
    }
}
