import Foundation
import Logging
import WidgetProtocol
import WidgetProviders
import WidgetSchedulerCore
import WidgetSchedulerRuntime

/// P5's call without its socket: a `Reload` of a kind, decided by the daemon's `WidgetService` over a state that
/// `daemon-bench populate` wrote (within its widgets' 5-minute floor, so every call defers them all), then its reply
/// encoded as the control server encodes it. Microseconds per call (decide, encode, both), best of `--rounds` of
/// `--calls`, after one untimed call. The heap is settled after loading as the daemon settles it (`HeapTuning`):
/// without that each call's lists and reply were fresh mappings, twice the daemon's time.
enum KindReloadBenchmark {
    static func run(_ options: BenchOptions) throws {
        let calls = try options.int("calls", 50)
        let rounds = try options.int("rounds", 5)
        let directory = URL(fileURLWithPath: try options.string("dir"), isDirectory: true)
        let providers = try options.string("providers")
        let manifests = ManifestLoader.load(directories: [providers])
        let store = try StateStore(directory: directory)
        var logger = Logger(label: "kind-reload")
        logger.logLevel = .critical
        let service = WidgetService(
            options: WidgetService.Options(stateDirectory: directory, socketPath: ""), settings: SchedulerSettings(),
            manifests: manifests, clock: SystemClock(), launcher: ImmediateLauncher(), timer: IdleTimer(),
            store: store, logger: logger)
        try service.load()
        HeapTuning.settleAfterLoading()
        let target = ReloadMethod.Parameters.Target.kind("trivial")
        _ = try service.reload(target, foreground: false)
        var best = (decide: Double.infinity, encode: Double.infinity, both: Double.infinity)
        var widgets = 0
        var bytes = 0
        for _ in 0..<rounds {
            var decide = 0.0
            var encode = 0.0
            for _ in 0..<calls {
                let started = Clock.monotonic()
                let decisions = try service.reload(target, foreground: false)
                let decided = Clock.monotonic()
                let reply = VarlinkResponse.reply(ReloadMethod.Reply(decisions: decisions))
                decide += decided - started
                encode += Clock.monotonic() - decided
                widgets = decisions.count
                if case .message(let message) = reply { bytes = message.count }
            }
            best.decide = min(best.decide, decide / Double(calls))
            best.encode = min(best.encode, encode / Double(calls))
            best.both = min(best.both, (decide + encode) / Double(calls))
        }
        try store.close()
        print(String(format: "widgets=%d decide_us=%.0f encode_us=%.0f call_us=%.0f reply_bytes=%d", widgets,
                     best.decide * 1e6, best.encode * 1e6, best.both * 1e6, bytes))
    }
}
