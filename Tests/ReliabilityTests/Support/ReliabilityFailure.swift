import Foundation
import WidgetSchedulerTestKit

/// A failure of the suite's machinery (a daemon that does not start, a deadline passed), said in words.
struct ReliabilityFailure: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}

/// Polls `body` every `interval` seconds until it returns a value, or throws once `timeout` seconds have passed.
func eventually<Value>(
    _ what: @autoclosure () -> String, timeout: Double = 20, interval: Double = 0.02, _ body: () throws -> Value?
) throws -> Value {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        if let value = try body() { return value }
        guard Date() < deadline else { throw ReliabilityFailure("waited \(timeout) s for \(what())") }
        Thread.sleep(forTimeInterval: interval)
    }
}

/// The median of `values` (0 for none).
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    return sorted[sorted.count / 2]
}

/// Seconds since boot (CLOCK_BOOTTIME), the clock the daemon's floor and budget run on.
func bootSeconds() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_BOOTTIME, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

extension SeededGenerator {
    /// The seed from `WIDGET_FAULTS_SEED`, else the time, so a failing run can be replayed with its printed seed.
    static func seed() -> UInt64 {
        ProcessInfo.processInfo.environment["WIDGET_FAULTS_SEED"].flatMap(UInt64.init)
            ?? UInt64(Date().timeIntervalSince1970 * 1000)
    }
}
