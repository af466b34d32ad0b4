import Foundation
import Testing
import WidgetProtocol
import WidgetSchedulerCore
import WidgetSchedulerRuntime
import WidgetSchedulerTestKit

/// `Snapshot`: the gallery's preview entry, asked of the provider with `isPreview` and never stored.
struct WidgetServiceSnapshotTests {
    private func snapshot(_ harness: WidgetServiceHarness, kind: String = "weather", family: String? = nil,
                          parameters: [String: JSONValue] = [:]) -> Result<SnapshotMethod.Reply, ControlError>? {
        var result: Result<SnapshotMethod.Reply, ControlError>?
        harness.service.snapshot(kind: kind, family: family, parameters: parameters) { result = $0 }
        return result
    }

    @Test func aSnapshotAsksThePreviewWithTheManifestsDefaultsAndAnswersItsEntry() throws {
        let harness = try WidgetServiceHarness()
        var result: Result<SnapshotMethod.Reply, ControlError>?
        harness.service.snapshot(kind: "weather", family: "systemMedium", parameters: ["units": .string("imperial")]) {
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
        harness.service.snapshot(kind: "weather", family: nil, parameters: ["units": .string("metric")]) {
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
        harness.service.snapshot(kind: "weather", family: nil, parameters: ["units": .string("metric")]) {
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
