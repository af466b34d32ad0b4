import Foundation
import Glibc

/// A benchmark failure, said in one line.
struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// `--name value` pairs after the subcommand, with typed reads and a clear error naming the flag.
struct BenchOptions {
    private var values: [String: String] = [:]
    private let accepted: Set<String>

    /// Reads `--name value` pairs; a name not in `accepted` (the mode's options) is an error naming it, so that a
    /// mistyped option is not silently replaced by its default.
    init(_ arguments: ArraySlice<String>, accepting accepted: Set<String>) throws {
        self.accepted = accepted
        var rest = arguments
        while let flag = rest.popFirst() {
            guard flag.hasPrefix("--"), let value = rest.popFirst() else {
                throw BenchError("expected --name value pairs, got \(flag)")
            }
            let name = String(flag.dropFirst(2))
            guard accepted.contains(name) else {
                let known = accepted.sorted().map { "--\($0)" }.joined(separator: " ")
                throw BenchError("unknown option \(flag) (this mode takes \(known.isEmpty ? "none" : known))")
            }
            values[name] = value
        }
    }

    private func value(_ name: String) -> String? {
        precondition(accepted.contains(name), "daemon-bench reads --\(name), which its mode does not declare")
        return values[name]
    }

    func string(_ name: String, _ fallback: String? = nil) throws -> String {
        guard let value = value(name) ?? fallback else { throw BenchError("--\(name) is required") }
        return value
    }

    func int(_ name: String, _ fallback: Int) throws -> Int {
        guard let text = value(name) else { return fallback }
        guard let value = Int(text), value >= 0 else { throw BenchError("--\(name): expected a count, got \(text)") }
        return value
    }

    func double(_ name: String, _ fallback: Double) throws -> Double {
        guard let text = value(name) else { return fallback }
        guard let value = Double(text) else { throw BenchError("--\(name): expected a number, got \(text)") }
        return value
    }
}

enum Clock {
    /// CLOCK_MONOTONIC seconds.
    static func monotonic() -> Double { read(CLOCK_MONOTONIC) }
    /// CLOCK_REALTIME seconds since 1970.
    static func wall() -> Double { read(CLOCK_REALTIME) }

    private static func read(_ clock: clockid_t) -> Double {
        var spec = timespec()
        clock_gettime(clock, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}

/// Sorted samples and their percentiles.
struct Percentiles {
    let sorted: [Double]

    init(_ samples: [Double]) { sorted = samples.sorted() }

    func at(_ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let index = min(sorted.count - 1, max(0, Int((fraction * Double(sorted.count)).rounded(.up)) - 1))
        return sorted[index]
    }

    /// `p50=…ms p99=…ms max=…ms n=…` with values in milliseconds.
    var summary: String {
        String(format: "p50_ms=%.3f p99_ms=%.3f max_ms=%.3f n=%d", at(0.5) * 1e3, at(0.99) * 1e3,
               (sorted.last ?? .nan) * 1e3, sorted.count)
    }
}

/// Fields of /proc/PID/status, in their units (kB for memory).
func procStatus(_ pid: Int32) -> [String: Double] {
    let text = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    var fields: [String: Double] = [:]
    for line in text.split(separator: "\n") {
        guard let colon = line.firstIndex(of: ":") else { continue }
        let value = line[line.index(after: colon)...].split(whereSeparator: { $0 == " " || $0 == "\t" }).first
        if let value, let number = Double(value) { fields[String(line[..<colon])] = number }
    }
    return fields
}
