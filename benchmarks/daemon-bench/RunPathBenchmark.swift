import Foundation
import WidgetProtocol
import WidgetProviders
import WidgetSchedulerCore

/// The pure parts of one provider run through the daemon, each on its own, hot: the request's encoding, the process
/// spec, the answer's decoding and the Watch events' encoding. Nanoseconds per run, best of `--rounds`.
enum RunPathBenchmark {
    static func run(_ options: BenchOptions) throws {
        let runs = try options.int("runs", 200_000)
        let rounds = try options.int("rounds", 5)
        let manifest = ProviderManifest(path: "/etc/widget-scheduler/providers/trivial.toml",
                                        exec: ["/usr/libexec/widget-scheduler/trivial.sh"],
                                        widgets: [WidgetKindManifest(kind: "trivial")])
        let now = Date(timeIntervalSince1970: 1_800_000_000.25)
        let request = ProviderRequest(
            request: .timeline, kind: "trivial",
            widget: ProviderRequest.Widget(id: "w3", family: "systemSmall", configuration: [:]),
            context: ProviderRequest.Context(now: now, isPreview: false, reason: .policy))
        let invocation = ProviderInvocation(manifest: manifest, request: request)
        let answer = Array(#"{"entries":[{"date":"2027-01-15T08:00:00Z","content":{"text":"hello"}}],"policy":"atEnd"}"#
            .utf8) + [10]
        func time(_ label: String, _ body: () -> Int) {
            var best = Double.infinity
            var sink = 0
            for _ in 0..<rounds {
                let started = Clock.monotonic()
                for _ in 0..<runs { sink &+= body() }
                best = min(best, (Clock.monotonic() - started) / Double(runs))
            }
            print(String(format: "%@_ns=%.0f%@", label, best * 1e9, sink == 42 ? " " : ""))
        }
        time("request_line") { request.encodedLine().count }
        time("process_spec") { invocation.processSpec.stdin.count }
        time("decode_answer") {
            guard case .success(let timeline) = ProviderAnswerDecoder.timeline(from: answer) else { return 0 }
            return timeline.entries.count
        }
        time("watch_run_finished") {
            WatchEvent.runFinished(widget: "w3", kind: "trivial", date: now, reason: "policy", outcome: "success",
                                   detail: nil).encodedJSONObject().count
        }
        time("watch_entry_changed") {
            let content = JSONValue(jsonText: #"{"text":"hello"}"#) ?? .null
            return WatchEvent.entryChanged(widget: "w3", kind: "trivial", date: now, content: content)
                .encodedJSONObject().count
        }
    }
}
