import Foundation
import Logging
import SystemdKit
import WidgetProtocol
import WidgetProviders
import WidgetSchedulerCore
import WidgetSchedulerRuntime

/// P1's runs through the daemon's `WidgetService` without processes, hot: 4 widgets of a kind in developer mode, 2
/// runs at a time, each answered from bytes as soon as the last one is done and decoded as a provider's stdout; its
/// journal line on stderr, its Watch events encoded for one watcher, the state written every `--flush-every` runs
/// (the daemon writes at most every 100 ms). Microseconds of the service's own work per run, best of `--rounds`.
/// With `--thrash-kb N`, N KiB of memory are written between two runs, untimed, as a provider's exec would evict the
/// caches between two runs in the daemon: the same work, cold.
enum ServicePathBenchmark {
    static func run(_ options: BenchOptions) throws {
        let runs = try options.int("runs", 50_000)
        let rounds = try options.int("rounds", 3)
        let flushEvery = try options.int("flush-every", 120)
        let thrash = [UInt8](repeating: 0, count: max(0, try options.int("thrash-kb", 0)) * 1024)
        let directory = URL(fileURLWithPath: try options.string("dir"), isDirectory: true)
        let providers = try options.string("providers")
        try? FileManager.default.removeItem(at: directory)
        let manifests = ManifestLoader.load(directories: [providers])
        guard manifests.widgetKind("trivial") != nil else {
            throw BenchError("no manifest in \(providers) serves trivial")
        }
        let store = try StateStore(directory: directory)
        let logger = Logger(label: "service-path") { _ in StderrLogHandler(level: .info) }
        let launcher = ImmediateLauncher()
        var settings = SchedulerSettings()
        settings.maxConcurrentRuns = 2
        settings.developerKinds = ["trivial"]
        let service = WidgetService(
            options: WidgetService.Options(stateDirectory: directory, socketPath: ""), settings: settings,
            manifests: manifests, clock: SystemClock(), launcher: launcher, timer: IdleTimer(), store: store,
            logger: logger)
        try service.load()
        var sent = 0
        _ = service.watch(WatchMethod.Parameters()) { event in
            sent &+= event.encodedJSONObject().count
            return true
        }
        for _ in 0..<4 { service.add(kind: "trivial", family: nil, parameters: [:]) { _ in } }
        var best = Double.infinity
        var ticks = 0
        var scratch = thrash
        for _ in 0..<rounds {
            var spent = 0.0
            for run in 1...runs {
                if !scratch.isEmpty {
                    scratch.withUnsafeMutableBytes { bytes in
                        for offset in stride(from: 0, to: bytes.count, by: 64) { bytes[offset] &+= 1 }
                    }
                }
                let started = Clock.monotonic()
                // A run due again a moment later waits for the timer, which the daemon's loop would fire.
                while launcher.isIdle {
                    service.tick()
                    ticks += 1
                }
                launcher.answerOldest(trivialAnswer)
                if run % flushEvery == 0 { service.flush() }
                spent += Clock.monotonic() - started
            }
            best = min(best, spent / Double(runs))
        }
        service.flush()
        try store.close()
        print(String(format: "service_run_us=%.2f ticks_per_run=%.3f watch_bytes=%d thrash_kb=%d", best * 1e6,
                     Double(ticks) / Double(runs * rounds), sent, thrash.count / 1024))
    }
}

/// A trivial provider's stdout for `invocation`, decoded as the runner decodes it: one entry dated to the second, as
/// its `date` writes it, so the widget is due again at once, as in P1.
private func trivialAnswer(_ invocation: ProviderInvocation) -> (ProviderRunResult, ProviderRunStats) {
    let date = RFC3339.string(from: Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)))
    let stdout = Array(#"{"entries":[{"date":"\#(date)","content":{"text":"hello"}}],"policy":"atEnd"}"#.utf8) + [10]
    let process = ProcessResult(pid: 4242, stdout: stdout, stderrTail: "", termination: .exited(0), failure: nil,
                                duration: 0.001, peakMemoryBytes: nil)
    return (invocation.result(of: process), ProviderRunStats(pid: 4242, exitStatus: "exited with status 0",
                                                             duration: 0.001))
}
