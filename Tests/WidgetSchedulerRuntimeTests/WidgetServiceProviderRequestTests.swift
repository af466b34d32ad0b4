import Foundation
import Testing
import WidgetProtocol
import WidgetProviders
import WidgetSchedulerCore
import WidgetSchedulerRuntime
import WidgetSchedulerTestKit

/// `Options`, `Snapshot` (WidgetServiceSnapshotTests) and an `Add`'s defaults ask providers through the scheduler's slots: shared when identical, rated per
/// uid.
@Suite struct WidgetServiceProviderRequestTests {
    /// A kind whose `city` parameter's choices come from its provider, and which needs one to be added.
    static let cities = ProviderManifest(
        path: "/etc/widget-scheduler/providers/cities.toml", exec: ["/usr/lib/widget-providers/cities"],
        widgets: [WidgetKindManifest(kind: "cities", parameters: [
            ParameterSpec(name: "city", type: .string, options: .dynamic),
        ])])

    static func harness(_ settings: SchedulerSettings) throws -> WidgetServiceHarness {
        let harness = try WidgetServiceHarness(settings: settings)
        harness.service.replaceManifests(ManifestSet(manifests: [WidgetServiceHarness.clockKind, cities]))
        return harness
    }

    /// A caller's answer, once it lands.
    final class Box<Reply: Sendable>: @unchecked Sendable {
        var result: Result<Reply, ControlError>?
    }

    /// An `Options` call's answer.
    typealias Answer = Box<OptionsMethod.Reply>

    /// An `Options` call for `city` with `search`; its result lands in the returned box once answered.
    static func ask(_ harness: WidgetServiceHarness, search: String?, uid: UInt32? = 1000) -> Answer {
        let answer = Answer()
        harness.service.options(kind: "cities", parameter: "city", search: search, uid: uid) { answer.result = $0 }
        return answer
    }

    static let paris = ProviderRunResult.success(
        .options([ParameterOption(value: .string("paris"), title: "Paris")]), stderrTail: "")

    @Test func identicalQuestionsAtOnceShareOneRunAndAllGetItsAnswer() throws {
        let harness = try Self.harness(SchedulerSettings(maxConcurrentRuns: 4))
        let answers = (0..<60).map { index in Self.ask(harness, search: "par", uid: UInt32(1000 + index % 3)) }
        #expect(harness.launcher.launches.count == 1)
        #expect(harness.launcher.launches[0].invocation.request.search == "par")
        #expect(answers.allSatisfy { $0.result == nil })
        harness.launcher.launches[0].complete(Self.paris)
        for answer in answers {
            #expect(try answer.result?.get().options.map(\.title) == ["Paris"])
        }
        // Its run over, the same question starts a new one.
        _ = Self.ask(harness, search: "par")
        #expect(harness.launcher.launches.count == 2)
    }

    @Test func distinctQuestionsNeverRunMoreProvidersThanHalfTheSlots() throws {
        let harness = try Self.harness(SchedulerSettings(maxConcurrentRuns: 4, optionsRate: 1_000))
        let answers = (0..<60).map { Self.ask(harness, search: "q\($0)") }
        #expect(harness.launcher.inFlight.count == 2)
        var mostAtOnce = 0
        while let run = harness.launcher.inFlight.first {
            mostAtOnce = max(mostAtOnce, harness.launcher.inFlight.count)
            run.complete(Self.paris)
        }
        #expect(mostAtOnce == 2)
        #expect(harness.launcher.launches.count == 60)
        #expect(answers.allSatisfy { (try? $0.result?.get()) != nil })
    }

    @Test func optionsAndWidgetRunsShareTheSlots() throws {
        let harness = try Self.harness(SchedulerSettings(maxConcurrentRuns: 1))
        _ = try harness.addWidget(kind: "clock")
        #expect(harness.launcher.inFlight.count == 1, "the widget's initial run")
        let answer = Self.ask(harness, search: nil)
        #expect(harness.launcher.launches.count == 1, "the options run waits for the slot")
        harness.launcher.launches[0].succeed(harness.timeline([0]))
        #expect(harness.launcher.launches.count == 2)
        #expect(harness.launcher.launches[1].invocation.request.request == .options)
        harness.launcher.launches[1].complete(Self.paris)
        #expect(try answer.result?.get().source == .provider)
    }

    @Test func aUidPastItsRateIsToldRateLimitedAndATrustedCallerIsNot() throws {
        let harness = try Self.harness(SchedulerSettings(maxConcurrentRuns: 8, optionsRate: 2))
        _ = Self.ask(harness, search: "a")
        _ = Self.ask(harness, search: "b")
        let third = Self.ask(harness, search: "c")
        #expect(third.result == .failure(.rateLimited(method: "Options", uid: 1000, perMinute: 2, retryAfter: 30)))
        #expect(third.result.map { error in
            if case .failure(let error) = error { error.message } else { "" }
        } == "refused: uid 1000 asked Options for more than 2 provider runs a minute (options-rate); ask again in "
            + "30 s")
        // A question already being asked is joined, at no cost; another uid, or a trusted caller, has its own way.
        let joined = Self.ask(harness, search: "a")
        let other = Self.ask(harness, search: "c", uid: 2000)
        let trusted = Self.ask(harness, search: "d", uid: nil)
        #expect(harness.launcher.launches.count == 4)
        for run in harness.launcher.inFlight { run.complete(Self.paris) }
        #expect([joined, other, trusted].allSatisfy { (try? $0.result?.get()) != nil })
    }

    @Test func anAddThatAsksForDefaultsWaitsForASlotAndIdenticalOnesShareIt() throws {
        let harness = try Self.harness(SchedulerSettings(maxConcurrentRuns: 1))
        _ = try harness.addWidget(kind: "clock")
        var ids: [Result<String, ControlError>] = []
        for _ in 0..<2 {
            harness.service.add(kind: "cities", family: nil, parameters: [:]) { ids.append($0) }
        }
        #expect(harness.launcher.launches.count == 1, "the defaults wait for the clock's run")
        harness.launcher.launches[0].succeed(harness.timeline([0]))
        #expect(harness.launcher.launches.count == 2)
        #expect(harness.launcher.launches[1].invocation.request.request == .defaults)
        harness.launcher.launches[1].complete(.success(.configuration(["city": .string("Oslo")]), stderrTail: ""))
        #expect(ids.count == 2)
        #expect(Set(ids.compactMap { try? $0.get() }).count == 2, "two widgets, from one defaults run")
    }

    @Test func stoppingEndsTheCallersRunsToo() throws {
        let harness = try Self.harness(SchedulerSettings(maxConcurrentRuns: 2))
        _ = Self.ask(harness, search: "x")
        harness.service.terminateRuns()
        #expect(harness.launcher.launches.allSatisfy { $0.terminated })
    }
}
