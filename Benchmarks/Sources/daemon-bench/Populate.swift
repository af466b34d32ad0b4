import Foundation
import Logging
import WidgetProtocol
import WidgetProviders
import WidgetSchedulerCore
import WidgetSchedulerRuntime

/// Writes a state directory with many widgets and their timelines through the daemon's own `WidgetService` and
/// `StateStore`, so the saved rows are exactly what a daemon would have saved, without spawning a provider per
/// widget: each widget's initial run is answered at once by `ImmediateLauncher`.
///
/// Widget i's timeline has `entries` entries; entry k is dated `now + first + k * spacing + i * stagger` and its
/// content is `{"text": "entry k of wi", "t": <that date as seconds since 1970>}`, so a watcher can measure its
/// lateness exactly. The policy is `never`, or `after(now + after)` with `--after SECONDS`.
enum Populate {
    static func run(_ options: BenchOptions) throws {
        let directory = URL(fileURLWithPath: try options.string("dir"), isDirectory: true)
        let providers = try options.string("providers")
        let kind = try options.string("kind", "trivial")
        let count = try options.int("widgets", 1_000)
        let entries = try options.int("entries", 10)
        let first = try options.double("first", 3_600)
        let spacing = try options.double("spacing", 3_600)
        let stagger = try options.double("stagger", 0)
        let after = try options.double("after", -1)
        try? FileManager.default.removeItem(at: directory)
        let manifests = ManifestLoader.load(directories: [providers])
        guard manifests.widgetKind(kind) != nil else { throw BenchError("no manifest in \(providers) serves \(kind)") }

        let started = Clock.monotonic()
        let store = try StateStore(directory: directory)
        let clock = SystemClock()
        let base = clock.now().wall.timeIntervalSince1970
        var logger = Logger(label: "populate")
        logger.logLevel = .critical
        let launcher = ImmediateLauncher()
        var settings = SchedulerSettings()
        settings.maxConcurrentRuns = 1_000_000
        let service = WidgetService(
            options: WidgetService.Options(stateDirectory: directory, socketPath: ""), settings: settings,
            manifests: manifests, clock: clock, launcher: launcher, timer: IdleTimer(), store: store, logger: logger)
        try service.load()
        var number = 0
        launcher.timeline = { invocation in
            let id = invocation.request.widget?.id ?? ""
            let index = Double(Int(id.dropFirst()) ?? 0) - 1
            let dated = (0..<entries).map { k -> TimelineEntry in
                let date = base + first + Double(k) * spacing + index * stagger
                return TimelineEntry(date: Date(timeIntervalSince1970: date),
                                     content: #"{"t":\#(String(format: "%.6f", date)),"text":"entry \#(k) of \#(id)"}"#)
            }
            return Timeline(entries: dated, policy: after < 0 ? .never
                                : .after(Date(timeIntervalSince1970: base + after)))
        }
        for _ in 0..<count {
            service.add(kind: kind, family: nil, parameters: [:]) { result in
                if case .failure(let error) = result { print("add failed: \(error)") }
            }
            launcher.completeAll()
            number += 1
            if number % 5_000 == 0 { service.flush() }
        }
        service.flush()
        try store.checkpoint()
        try store.close()
        print(String(format: "populated widgets=%d entries=%d seconds=%.2f", count, entries,
                     Clock.monotonic() - started))
    }
}

/// A launcher whose runs no process serves: each waits until the benchmark answers it, oldest first.
/// `completeAll()` answers every waiting run with `timeline(invocation)`.
final class ImmediateLauncher: ProviderLauncher {
    var timeline: (ProviderInvocation) -> Timeline = { _ in Timeline(entries: [], policy: .never) }
    private var waiting: [(ProviderInvocation, (ProviderRunResult, ProviderRunStats) -> Void)] = []

    /// Whether no run is waiting for an answer.
    var isIdle: Bool { waiting.isEmpty }

    func launch(_ invocation: ProviderInvocation,
                completion: @escaping (ProviderRunResult, ProviderRunStats) -> Void) -> ProviderRunHandle {
        waiting.append((invocation, completion))
        return InstantRunHandle(pid: 1)
    }

    /// Ends the oldest waiting run, if any, with what `answer` makes of its invocation.
    func answerOldest(_ answer: (ProviderInvocation) -> (ProviderRunResult, ProviderRunStats)) {
        guard !waiting.isEmpty else { return }
        let (invocation, completion) = waiting.removeFirst()
        let (result, stats) = answer(invocation)
        completion(result, stats)
    }

    func completeAll() {
        while !isIdle {
            answerOldest { invocation in
                (.success(.timeline(timeline(invocation)), stderrTail: ""),
                 ProviderRunStats(pid: 1, exitStatus: "exited with status 0", duration: 0.001))
            }
        }
    }
}

/// The handle of a benchmark's run that no process serves: it ends when it is answered, never lasting.
final class InstantRunHandle: ProviderRunHandle {
    let pid: Int32
    init(pid: Int32) { self.pid = pid }
    func terminate() {}
    func whenLasting(_ body: @escaping (Int32) -> Void) {}
}

/// No timer: the populating service never waits for a deadline.
final class IdleTimer: WakeupTimer {
    func arm(at: Double?, accuracy: Double) {}
}
