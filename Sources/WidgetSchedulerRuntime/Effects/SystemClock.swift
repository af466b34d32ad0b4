import Foundation
import Glibc
import WidgetSchedulerCore

/// The machine's clocks: CLOCK_BOOTTIME (monotonic, and counting suspend, so tokens refill while the machine sleeps)
/// and CLOCK_REALTIME.
///
/// `wallOffset` shifts the wall reading only; it exists so the fault suite can simulate clock jumps without setting
/// the machine's real clock, which other work on the machine depends on.
public final class SystemClock: DaemonClock {
    /// Seconds added to the wall clock (test-only; 0 in production).
    public var wallOffset: Double

    /// The kernel's boot id, read when the clock is made.
    public let bootID: String

    public init(wallOffset: Double = 0) {
        self.wallOffset = wallOffset
        bootID = Self.kernelBootID()
    }

    public func now() -> Instant {
        Instant(monotonic: Self.seconds(CLOCK_BOOTTIME),
                wall: Date(timeIntervalSince1970: Self.seconds(CLOCK_REALTIME) + wallOffset))
    }

    /// The kernel's boot id: equal across daemon restarts within one boot, new after a reboot.
    public static func kernelBootID() -> String {
        (try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "unknown"
    }

    static func seconds(_ clock: clockid_t) -> Double {
        var spec = timespec()
        clock_gettime(clock, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
