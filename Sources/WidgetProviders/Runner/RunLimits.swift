/// Which form of containment a run had: its own cgroup, with or without whole-run caps, or only per-process limits.
/// Told by `run-provider` and by the run's journal line (`LIMITS=`), so that a provider author sees which limits held.
public enum RunLimits: String, Sendable, Equatable, CaseIterable, CustomStringConvertible {
    /// A cgroup of its own with `memory.max` and `pids.max`: the memory cap and the task cap hold for the run as a
    /// whole, and `cgroup.kill` ends every process of it.
    case cgroup
    /// A cgroup of its own without the memory and pids controllers (none were delegated): `cgroup.kill` ends every
    /// process of the run, but the memory cap is RLIMIT_DATA per process and there is no task cap of the run's own.
    case cgroupKillOnly = "cgroup-kill-only"
    /// No cgroup: the memory cap is RLIMIT_DATA per process, there is no task cap of the run's own, and what leaves
    /// the process group is killed by the runner's orphan reaper.
    case process

    /// Whether the memory cap holds for the run as a whole.
    public var capsWholeRun: Bool { self == .cgroup }

    public var description: String {
        switch self {
        case .cgroup: "memory and tasks capped for the whole run (cgroup)"
        case .cgroupKillOnly:
            "memory capped per process (RLIMIT_DATA), no task cap; the run's cgroup is killed at its end"
        case .process: "memory capped per process (RLIMIT_DATA), no task cap"
        }
    }
}
