import CSpawn

#if canImport(Glibc)
import Glibc
#endif

/// Kills and reaps what finished runs leave behind, for a process whose every child is a provider of its runner (the
/// daemon, `run-provider`).
///
/// A provider's process group is killed when its run ends, but a process that left the group (`setsid`, `setpgid`,
/// a double fork into a session of its own) is not in it. Such a process stays inside the process tree, though: the
/// runner's process is a child subreaper (`PR_SET_CHILD_SUBREAPER`), so what a provider orphans is handed to it
/// rather than to init, and every provider is a subreaper too (set before its exec), so that while it lives, what it
/// starts and orphans stays its own. Nothing can be handed to the runner's process, then, before the provider that
/// started it has exited, that is before its run ends (a provider's other ways out of its tree, `CLONE_PARENT` and
/// `clone3`, are refused by the sandbox's seccomp filter). At the end of every run, whatever was handed over is
/// killed with everything below it and reaped (`cspawn_kill_orphans`); one still dying then is reaped by another
/// sweep a moment later.
///
/// Where runs have cgroups of their own (`RunCgroups`), `cgroup.kill` reaches every process of the run whatever it
/// did, and the sweep is left with reaping.
final class OrphanReaper {
    /// Orphans killed, and those reaped, over the reaper's life.
    private(set) var killed = 0
    private(set) var reaped = 0
    /// Called with what each sweep that found something did: for the daemon's journal.
    var report: ((cspawn_orphan_sweep) -> Void)?
    private let loop: RunnerEventLoop
    /// The live runs' own children where they are children of the main thread (spawned without a sandbox).
    private let knownChildren: () -> [pid_t]
    private var retry: RunnerEventToken?

    /// How long a sweep waits for what it killed to exit: killed processes exit as soon as the kernel runs them, and a
    /// sweep runs on the loop's thread, so a longer wait is another sweep's.
    static let sweepWait: Int32 = 5
    /// When a sweep left killed processes unreaped, the next one comes this long after.
    static let retryDelay = 0.05

    /// Makes this process a child subreaper. `knownChildren` gives the children a sweep must spare. Throws the errno
    /// if the kernel refuses.
    init(loop: RunnerEventLoop, knownChildren: @escaping () -> [pid_t]) throws(SystemCallFailure) {
        guard cspawn_become_subreaper() == 0 else {
            throw SystemCallFailure(call: "prctl(PR_SET_CHILD_SUBREAPER)", errno: errno)
        }
        self.loop = loop
        self.knownChildren = knownChildren
    }

    deinit {
        retry?.cancel()
    }

    /// Kills every child of this process's main thread but the live runs' own, with what is below it, and reaps it;
    /// waits up to `waitMilliseconds` for them to exit. Returns what it found.
    @discardableResult
    func sweep(waitMilliseconds: Int32 = OrphanReaper.sweepWait) -> cspawn_orphan_sweep {
        var sweep = cspawn_orphan_sweep()
        let known = knownChildren()
        let status = known.withUnsafeBufferPointer {
            cspawn_kill_orphans($0.baseAddress, $0.count, waitMilliseconds, &sweep)
        }
        guard status == 0 else { return sweep }
        killed += Int(sweep.killed)
        reaped += Int(sweep.reaped)
        if sweep.found > 0 || sweep.reaped > 0 { report?(sweep) }
        if sweep.remaining > 0, retry == nil {
            retry = try? loop.schedule(after: Self.retryDelay) { [weak self] in
                self?.retry = nil
                self?.sweep()
            }
        }
        return sweep
    }
}

/// A system call that failed, with its errno.
public struct SystemCallFailure: Error, Equatable, CustomStringConvertible {
    public var call: String
    public var errno: Int32

    public var description: String { "\(call): \(String(cString: strerror(errno)))" }
}
