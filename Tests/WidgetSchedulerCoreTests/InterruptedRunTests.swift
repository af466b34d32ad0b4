import Foundation
import Testing
import WidgetSchedulerCore
import WidgetSchedulerCoreTestKit

/// A run a restart interrupts (kill -9 or SIGTERM) spent its token when it started: the run that takes its place after
/// the restart spends none, waits for the floor but not for a token, and a follow-up merged into it does not make it
/// pay twice.
struct InterruptedRunTests {
    /// What was in flight and waiting when the daemon stopped, and what the run after the restart must be.
    struct Row: CustomTestStringConvertible, Sendable {
        var name: String
        /// The reason of the run in flight (`initial`: the widget was just added).
        var interrupted: RunReason
        /// A request taken while it ran, waiting as its follow-up.
        var followUp: RunReason?
        var burst: Double = 3
        var developerMode = false
        /// Restarts in a row, each interrupting the run that the previous one started again.
        var restarts = 1
        /// The reason and monotonic start of the run after the last restart.
        var expectedReason: RunReason
        var expectedStart: Double
        /// Tokens once that run has started.
        var expectedTokens: Double

        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "an explicit run spends no second token and waits for the floor",
            interrupted: .explicit, expectedReason: .explicit, expectedStart: 700, expectedTokens: 2),
        Row(name: "a policy run spends no second token", interrupted: .policy, expectedReason: .policy,
            expectedStart: 700, expectedTokens: 2),
        Row(name: "a run that spent the last token runs again without waiting for a new one",
            interrupted: .explicit, burst: 1, expectedReason: .explicit, expectedStart: 700, expectedTokens: 0),
        Row(name: "a retry spends no second token", interrupted: .retry, expectedReason: .retry, expectedStart: 600,
            expectedTokens: 2),
        Row(name: "interrupted three times, it still spends nothing more", interrupted: .explicit, restarts: 3,
            expectedReason: .explicit, expectedStart: 1_300, expectedTokens: 2),
        Row(name: "an explicit follow-up merged into it is the same paid run",
            interrupted: .policy, followUp: .explicit, expectedReason: .explicit, expectedStart: 700,
            expectedTokens: 2),
        Row(name: "a configuration follow-up runs at once, exempt", interrupted: .explicit, followUp: .configuration,
            expectedReason: .configuration, expectedStart: 411, expectedTokens: 2),
        Row(name: "an interrupted initial run runs again at once, exempt", interrupted: .initial,
            expectedReason: .initial, expectedStart: 410, expectedTokens: 3),
        Row(name: "a developer-mode kind spends nothing either way", interrupted: .explicit, developerMode: true,
            expectedReason: .explicit, expectedStart: 410, expectedTokens: 3),
    ]

    @Test(arguments: rows)
    func theRunAfterARestartUsesTheInterruptedRunsToken(_ row: Row) throws {
        // No refill, so a token the re-run spent or waited for would show.
        let settings = SchedulerSettings(minimumInterval: 300, dailyBudget: 0, burstBudget: row.burst,
                                         maxConcurrentRuns: 4, developerKinds: row.developerMode ? ["k"] : [])
        var clock = ManualClock()
        var scheduler = Scheduler(settings: settings)
        try Self.startInterruptedRun(row.interrupted, in: &scheduler, clock: &clock)
        if let followUp = row.followUp {
            clock.advance(to: 401)
            _ = scheduler.handle(Self.request(followUp), at: clock.now)
        }
        var saved = try #require(scheduler.widgets["w"])
        #expect(saved.inFlight?.reason == row.interrupted)
        var savedAt = clock.now
        var started: [SchedulerAction] = []
        for restart in 1...row.restarts {
            clock.advance(to: savedAt.monotonic + 10)
            scheduler = Scheduler(settings: settings)
            scheduler.restore(saved.restored(savedAt: savedAt, now: clock.now, sameBoot: true), at: clock.now)
            let wakeup = scheduler.nextWakeup()
            let start = try #require(wakeup, "restart \(restart): nothing planned")
            clock.advance(to: start)
            started = scheduler.handle(.tick, at: clock.now)
            saved = try #require(scheduler.widgets["w"])
            savedAt = clock.now
        }
        #expect(started.contains(.startRun(widget: "w", reason: row.expectedReason)))
        #expect(clock.now.monotonic == row.expectedStart)
        let tokens = try #require(scheduler.tokens(of: "w", at: clock.now))
        #expect(abs(tokens - row.expectedTokens) < 1e-9)
        #expect(scheduler.widgets["w"]?.pending == nil)
    }

    @Test func aRunNotInterruptedStillSpendsItsToken() throws {
        var harness = SchedulerHarness(SchedulerSettings(minimumInterval: 300, dailyBudget: 0, burstBudget: 3,
                                                         maxConcurrentRuns: 4))
        harness.at(0, .widgetAdded(id: "w", kind: "k"))
        harness.succeed("w", at: 1)
        #expect(harness.reload(400, .widgets(["w"])) == ["w": .ran(at: 400)])
        harness.succeed("w", at: 401)
        #expect(harness.scheduler.tokens(of: "w", at: harness.now) == 2)
    }

    @Test func aPaidRunMergedWithARequestStaysPaidAndTheStrongerReasonWins() {
        let now = Instant(monotonic: 10, wall: Date(timeIntervalSince1970: 1_767_600_000))
        let paid = PendingRun(reason: .policy, due: .monotonic(5), alreadyPaid: true)
        let request = PendingRun(reason: .explicit, due: .monotonic(10))
        #expect(paid.merged(with: request, at: now) == PendingRun(reason: .explicit, due: .monotonic(5),
                                                                 alreadyPaid: true))
        #expect(request.merged(with: paid, at: now) == PendingRun(reason: .explicit, due: .monotonic(5),
                                                                 alreadyPaid: true))
        #expect(request.merged(with: request, at: now).alreadyPaid == false)
    }

    /// Brings widget `w` of kind `k` to a run for `reason` in flight: added at 0 and answered at 1 (for `initial`,
    /// added at 400), then its run starts at 400 (`retry`: its first run failed, and the floor lets it retry at 300).
    static func startInterruptedRun(_ reason: RunReason, in scheduler: inout Scheduler,
                                    clock: inout ManualClock) throws {
        if reason == .initial {
            clock.advance(to: 400)
            _ = scheduler.handle(.widgetAdded(id: "w", kind: "k"), at: clock.now)
            return
        }
        _ = scheduler.handle(.widgetAdded(id: "w", kind: "k"), at: clock.now)
        clock.advance(to: 1)
        let outcome: RunOutcome
        switch reason {
        case .retry: outcome = .failure(reason: .exit, detail: "exit status 1")
        case .policy: outcome = .success(Timeline(entries: [], policy: .after(clock.now.wall.addingTimeInterval(399))))
        default: outcome = .success(Timeline(entries: [], policy: .never))
        }
        _ = scheduler.handle(.runFinished(id: "w", outcome: outcome), at: clock.now)
        let started: [SchedulerAction]
        switch reason {
        case .retry, .policy:
            let wakeup = scheduler.nextWakeup()
            clock.advance(to: try #require(wakeup))
            started = scheduler.handle(.tick, at: clock.now)
        default:
            clock.advance(to: 400)
            started = scheduler.handle(request(reason), at: clock.now)
        }
        #expect(started.contains(.startRun(widget: "w", reason: reason)))
    }

    static func request(_ reason: RunReason) -> SchedulerEvent {
        switch reason {
        case .configuration: return .configurationChanged(id: "w", request: 2)
        case .foreground: return .reloadRequested(.widgets(["w"]), foreground: true, request: 1)
        default: return .reloadRequested(.widgets(["w"]), foreground: false, request: 1)
        }
    }
}
