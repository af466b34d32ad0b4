import Foundation
import Testing
import WidgetProtocol
import WidgetProviders
import WidgetSchedulerCore
import WidgetSchedulerRuntime
import WidgetSchedulerTestKit

/// `Snapshot`: the gallery's preview entry, asked of the provider with `isPreview` and never stored.
struct WidgetServiceSnapshotTests {
    private func snapshot(_ harness: WidgetServiceHarness, kind: String = "weather", family: String? = nil,
                          parameters: [String: JSONValue] = [:], uid: UInt32? = nil)
        -> Result<SnapshotMethod.Reply, ControlError>?
    {
        var result: Result<SnapshotMethod.Reply, ControlError>?
        harness.service.snapshot(kind: kind, family: family, parameters: parameters, uid: uid) { result = $0 }
        return result
    }

    /// A snapshot asked as `uid`, whose result lands in the returned box once answered.
    private func ask(_ harness: WidgetServiceHarness, family: String? = nil, units: String = "metric",
                     uid: UInt32? = 1000) -> WidgetServiceProviderRequestTests.Box<SnapshotMethod.Reply> {
        let box = WidgetServiceProviderRequestTests.Box<SnapshotMethod.Reply>()
        harness.service.snapshot(kind: "weather", family: family, parameters: ["units": .string(units)], uid: uid) {
            box.result = $0
        }
        return box
    }

    private static let entry = ProviderRunResult.success(
        .entry(TimelineEntry(date: Date(timeIntervalSince1970: 1_800_000_000), content: "{}")), stderrTail: "")

    @Test func snapshotsWaitForARunSlotAndTheSamePreviewAskedAtOnceSharesOneRun() throws {
        let harness = try WidgetServiceHarness(settings: SchedulerSettings(maxConcurrentRuns: 1))
        _ = try harness.addWidget(kind: "clock")
        #expect(harness.launcher.inFlight.count == 1, "the widget's initial run holds the only slot")
        let same = (0..<20).map { ask(harness, uid: UInt32(1000 + $0 % 4)) }
        let medium = ask(harness, family: "systemMedium")
        #expect(harness.launcher.launches.count == 1, "the previews wait for the slot")
        harness.launcher.launches[0].succeed(harness.timeline([0]))
        #expect(harness.launcher.launches.count == 2, "one run for the twenty identical previews")
        #expect(harness.launcher.launches[1].invocation.request.request == .snapshot)
        harness.launcher.launches[1].complete(Self.entry)
        #expect(same.allSatisfy { (try? $0.result?.get())?.family == "systemSmall" })
        #expect(medium.result == nil, "another family is another question, after its turn")
        #expect(harness.launcher.launches.count == 3)
        harness.launcher.launches[2].complete(Self.entry)
        #expect((try? medium.result?.get())?.family == "systemMedium")
    }

    @Test func aUidPastItsRateIsToldRateLimitedForSnapshotsAndRootIsNot() throws {
        let harness = try WidgetServiceHarness(settings: SchedulerSettings(maxConcurrentRuns: 8, optionsRate: 2))
        _ = ask(harness, units: "metric")
        _ = ask(harness, units: "imperial")
        let third = ask(harness, family: "systemMedium")
        #expect(third.result == .failure(.rateLimited(method: "Snapshot", uid: 1000, perMinute: 2, retryAfter: 30)))
        let joined = ask(harness, units: "metric")
        let trusted = ask(harness, family: "systemMedium", uid: nil)
        #expect(harness.launcher.launches.count == 3, "the joined preview shares a run; root has no rate")
        for run in harness.launcher.inFlight { run.complete(Self.entry) }
        #expect([joined, trusted].allSatisfy { (try? $0.result?.get()) != nil })
    }

    @Test func aSnapshotAsksThePreviewWithTheManifestsDefaultsAndAnswersItsEntry() throws {
        let harness = try WidgetServiceHarness()
        var result: Result<SnapshotMethod.Reply, ControlError>?
        harness.service.snapshot(kind: "weather", family: "systemMedium", parameters: ["units": .string("imperial")],
                                 uid: nil) {
            result = $0
        }
        let launch = try #require(harness.launcher.launches.last)
        let request = launch.invocation.request
        #expect(request.request == .snapshot)
        #expect(request.context.isPreview)
        #expect(request.widget?.family == "systemMedium")
        #expect(request.widget?.configuration == ["location": .string("Cupertino"), "units": .string("imperial")])
        #expect(result == nil)
        let date = Date(timeIntervalSince1970: 1_800_000_000)
        launch.complete(.success(.entry(TimelineEntry(date: date, content: #"{"temperature":21}"#)), stderrTail: ""))
        let reply = try #require(result).get()
        #expect(reply.family == "systemMedium")
        #expect(reply.entry == WidgetSummary.CurrentEntry(date: date, content: .object(["temperature": .integer(21)])))
        #expect(harness.service.list().isEmpty, "a preview adds no widget")
    }

    @Test func aSnapshotTakesTheKindsFirstFamilyWhenNoneIsNamed() throws {
        let harness = try WidgetServiceHarness()
        _ = snapshot(harness, parameters: ["units": .string("metric")])
        #expect(harness.launcher.launches.last?.invocation.request.widget?.family == "systemSmall")
    }

    @Test func aSnapshotRefusesAnUnknownKindAFamilyTheKindLacksAndABadParameter() throws {
        let harness = try WidgetServiceHarness()
        guard case .failure(let unknown)? = snapshot(harness, kind: "tides") else {
            Issue.record("an unknown kind was accepted")
            return
        }
        #expect(unknown.name == ControlError.Name.unknownKind)
        guard case .failure(let family)? = snapshot(harness, family: "systemLarge") else {
            Issue.record("a family the kind lacks was accepted")
            return
        }
        #expect(family.parameters["parameter"] == .string("family"))
        guard case .failure(let units)? = snapshot(harness, parameters: ["units": .string("kelvin")]) else {
            Issue.record("an option the manifest lacks was accepted")
            return
        }
        #expect(units.parameters["parameter"] == .string("units"))
        #expect(harness.launcher.launches.isEmpty, "nothing refused reaches the provider")
    }

    @Test func aFailedOrWrongSnapshotAnswerIsAProviderFailureNamingTheKind() throws {
        let harness = try WidgetServiceHarness()
        var failed: Result<SnapshotMethod.Reply, ControlError>?
        harness.service.snapshot(kind: "weather", family: nil, parameters: ["units": .string("metric")], uid: nil) {
            failed = $0
        }
        try #require(harness.launcher.launches.last).fail(.timeout, detail: "no answer within 10 s")
        guard case .failure(let error)? = failed else {
            Issue.record("expected a failure, got \(String(describing: failed))")
            return
        }
        #expect(error.name == ControlError.Name.providerFailed)
        #expect(error.parameters["kind"] == .string("weather"))
        #expect(error.parameters["reason"] == .string("timeout"))

        var wrong: Result<SnapshotMethod.Reply, ControlError>?
        harness.service.snapshot(kind: "weather", family: nil, parameters: ["units": .string("metric")], uid: nil) {
            wrong = $0
        }
        try #require(harness.launcher.launches.last).complete(.success(.configuration([:]), stderrTail: ""))
        guard case .failure(let invalid)? = wrong else {
            Issue.record("expected a failure, got \(String(describing: wrong))")
            return
        }
        #expect(invalid.parameters["reason"] == .string("invalid"))
    }
}
