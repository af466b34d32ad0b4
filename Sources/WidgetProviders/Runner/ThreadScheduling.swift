import CSpawn
#if canImport(Glibc)
import Glibc
#endif

/// How the calling thread is scheduled, and the short slice the daemon's latency-critical threads ask for.
///
/// Under the default policy (SCHED_OTHER, EEVDF since Linux 6.6) a provider's exit wakes the event loop, and the
/// event loop's hand-over wakes the spawning thread. A woken thread placed on a CPU where a provider has just begun
/// its slice waited out that slice while the CPU the provider left went idle, so under `SCHED_OTHER` a busy daemon
/// left part of the machine idle between runs. Since Linux 6.12 a thread may ask for a shorter slice
/// (`sched_setattr` with `sched_runtime`, no privilege needed), and a woken thread whose slice is shorter preempts
/// the running one. Both threads ask for the shortest, 0.1 ms, and set `SCHED_RESET_ON_FORK`, so providers start
/// with the kernel's default slice, and with a nice of at least 0 (as systemd's `CPUSchedulingResetOnFork=`): a
/// plugin never inherits the service's precedence. A thread under a real-time, deadline or idle policy keeps it.
public struct ThreadScheduling: Sendable, Equatable {
    /// `SCHED_OTHER`, `SCHED_BATCH`, `SCHED_IDLE`, `SCHED_FIFO`, `SCHED_RR` or `SCHED_DEADLINE`.
    public var policy: Int32
    /// Whether what the thread starts begins without its policy, negative nice and slice.
    public var resetsOnFork: Bool
    /// The nice value.
    public var nice: Int32
    /// The EEVDF slice in nanoseconds under `SCHED_OTHER` or `SCHED_BATCH`; nil where the kernel reports none
    /// (before 6.12, or another policy).
    public var sliceNanoseconds: UInt64?

    /// The slice the event loop and the spawning thread ask for.
    public static let latencySliceNanoseconds = CSPAWN_LATENCY_SLICE_NS

    /// What asking for the latency slice did.
    public enum SliceRequest: Sendable, Equatable {
        /// The slice and `SCHED_RESET_ON_FORK` are set; `grantedSlice` is the slice the kernel reports now, in
        /// nanoseconds: the one asked for, or nil where the kernel has none to report (before 6.12, which keeps its
        /// default slice).
        case applied(grantedSlice: UInt64?)
        /// The thread runs under another policy, named here, and was left as it is.
        case otherPolicy(String)
        /// `call` (`sched_getattr` or `sched_setattr`) failed with this errno.
        case failed(call: String, errno: Int32)
    }

    /// The calling thread's scheduling, or nil with `errno` if the kernel would not tell.
    public static func current() -> ThreadScheduling? {
        var scheduling = cspawn_thread_scheduling()
        guard cspawn_thread_scheduling_get(&scheduling) == 0 else { return nil }
        return ThreadScheduling(policy: scheduling.policy, resetsOnFork: scheduling.reset_on_fork != 0,
                                nice: scheduling.nice,
                                sliceNanoseconds: scheduling.slice_ns == 0 ? nil : scheduling.slice_ns)
    }

    /// Asks the kernel for `latencySliceNanoseconds` for the calling thread (see the type's documentation).
    public static func requestLatencySlice() -> SliceRequest {
        switch cspawn_thread_request_slice(latencySliceNanoseconds) {
        case 1:
            return .applied(grantedSlice: current()?.sliceNanoseconds)
        case 0:
            return .otherPolicy(current().map { policyName($0.policy) } ?? "unknown")
        case -2:
            return .failed(call: "sched_getattr", errno: errno)
        default:
            return .failed(call: "sched_setattr", errno: errno)
        }
    }

    /// `SCHED_OTHER`, `SCHED_FIFO`…, or the number for a policy this code does not know.
    public static func policyName(_ policy: Int32) -> String {
        // Linux's numbers: Glibc's Swift module leaves out the GNU ones (batch, idle, deadline).
        let names = [0: "SCHED_OTHER", 1: "SCHED_FIFO", 2: "SCHED_RR", 3: "SCHED_BATCH", 5: "SCHED_IDLE",
                     6: "SCHED_DEADLINE"]
        return names[Int(policy)] ?? "policy \(policy)"
    }
}
