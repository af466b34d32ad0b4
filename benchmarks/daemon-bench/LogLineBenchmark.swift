import Foundation
import Logging
import SystemdKit

/// The cost of one journal line of a provider run through swift-log and the stderr handler, as the daemon writes it
/// when journald is absent, and of its parts: nanoseconds per line, best of `--rounds`.
enum LogLineBenchmark {
    static func run(_ options: BenchOptions) throws {
        let lines = try options.int("lines", 200_000)
        let rounds = try options.int("rounds", 5)
        let logger = Logger(label: "bench") { _ in StderrLogHandler(level: .info) }
        func metadata(_ index: Int) -> Logger.Metadata {
            [
                "MESSAGE_ID": "7633e9afe0f54a36aebcf59076c059dd",
                "RELOAD_REASON": "policy",
                "PROVIDER_PID": .string(String(index + 1000)),
                "DURATION_USEC": .string(String(index % 5000 + 1000)),
                "TOKENS": "12.00",
                "EXIT_STATUS": "exited with status 0",
                "POLICY": "atEnd",
                "WIDGET_ID": "w3",
                "WIDGET_KIND": "trivial",
            ]
        }
        let fixed = metadata(1)
        func time(_ label: String, _ body: (Int) -> Void) {
            var best = Double.infinity
            for _ in 0..<rounds {
                let started = Clock.monotonic()
                for index in 0..<lines { body(index) }
                best = min(best, (Clock.monotonic() - started) / Double(lines))
            }
            print(String(format: "%@_ns=%.0f", label, best * 1e9))
        }
        var sink = 0
        time("metadata_literal") { sink &+= metadata($0).count }
        time("metadata_fields") { _ in sink &+= JournalFields.metadataFields(fixed).count }
        let message = "w3: trivial provider answered 1 entries, policy atEnd"
        time("line_bytes") { _ in
            sink &+= StderrLogHandler.line(level: .info, message: message, metadata: fixed).utf8.count
        }
        time("log_line") { index in
            logger.info("\(message)", metadata: metadata(index))
        }
        if sink == 42 { print("") }
    }
}
