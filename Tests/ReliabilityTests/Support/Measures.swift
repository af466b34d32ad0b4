import Foundation
import Glibc
import WidgetSchedulerTestKit

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
