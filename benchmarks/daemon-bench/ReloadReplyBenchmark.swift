import Foundation
import WidgetProtocol
import WidgetSchedulerCore

/// The encoding of P5's reply, a kind's `Reload` of `--widgets` deferrals to floors within one second: the reply's own
/// `encodeJSONObject` (through `JSONByteCursor`) against the same text written with an append per piece through
/// `JSONBytesWriter`, as it was before the cursor. Microseconds per reply, best of `--rounds`; both texts must match.
enum ReloadReplyBenchmark {
    static func run(_ options: BenchOptions) throws {
        let widgets = try options.int("widgets", 10_000)
        let rounds = try options.int("rounds", 20)
        let floor = Date(timeIntervalSince1970: 1_795_343_827)
        let reply = ReloadMethod.Reply(decisions: (0..<widgets).map { index in
            ReloadDecision(widget: "w\(index + 1)", decision: .deferred,
                           at: floor.addingTimeInterval(Double(index % 1000) / 1000), because: .floor)
        })
        func time(_ label: String, _ encode: () -> [UInt8]) -> [UInt8] {
            var best = Double.infinity
            var text: [UInt8] = []
            for _ in 0..<rounds {
                let started = Clock.monotonic()
                text = encode()
                best = min(best, Clock.monotonic() - started)
            }
            print(String(format: "%@_us=%.0f bytes=%d", label, best * 1e6, text.count))
            return text
        }
        let cursor = time("cursor") { reply.encodedJSONObject() }
        let appends = time("appends") {
            var output = JSONBytesWriter(reservingCapacity: reply.jsonCapacityEstimate)
            output.raw("{\"decisions\":[")
            for (index, decision) in reply.decisions.enumerated() {
                if index > 0 { output.raw(",{\"at\":") } else { output.raw("{\"at\":") }
                output.date(decision.at)
                output.raw(",\"because\":\"floor\",\"decision\":\"deferred\",\"widget\":")
                output.string(decision.widget)
                output.raw("}")
            }
            output.raw("]}")
            return output.bytes
        }
        guard cursor == appends else { throw BenchError("reload-reply: the two encodings differ") }
    }
}
