#if canImport(Glibc)
import Glibc
#endif

/// Runs provider processes, each contained in its own process group, driven by a `RunnerEventLoop`.
///
/// Each child gets: its own process group (pgid = pid; not a new session, whose scheduler autogroup made every run
/// markedly slower), an empty signal mask and default dispositions for every signal, only descriptors 0, 1 and 2
/// (pipes; everything from 3 up is closed by the spawn), the spec's environment only, and RLIMIT_DATA at the spec's
/// memory cap (see `ProcessResult` for how a failure is told to be `memory`). The spawn is a clone like posix_spawn's
/// (`CSpawnExec.c`: shared memory, the caller waiting until the exec) with a hook before the exec that sets the limits,
/// the subreaper, the run's cgroup and Landlock domain, so that they hold from the provider's first instruction
/// (docs/provider-protocol.md says why not posix_spawn itself). The request is in stdin's pipe before the spawn,
/// followed by end-of-file, so a child never waits for the runner to feed it. The runner then watches the child's exit
/// through the end of its stdout, and, from its stream-watch delay on (or once its stdout has ended without its exit),
/// its stdout, stderr and a pidfd (`RunnerSharedState`, `ProcessSpec.streamWatchDelay`). With a sandbox, the spawn is
/// queued on the sandbox's thread and the loop does not wait for the child's exec; without one, the clone's own wait
/// (until the child has exec'd) is the only one.
///
/// At the end of every run, and before the child is reaped (so its pid, which names the group, cannot be reused),
/// the whole group gets SIGKILL. What left the group (setsid, setpgid, a double fork) is killed by the runner's
/// `OrphanReaper` (`adoptOrphans()`): every provider is a child subreaper, so what it orphans stays in its tree while
/// it lives, and is handed to the runner's process, and killed, once it is gone.
/// RLIMIT_NPROC is not used against fork bombs: it counts every process of the user, the daemon's included, and
/// does not apply to root; a fork bomb that stays in its group dies with it at the timeout.
///
/// The runner ignores SIGPIPE in the calling process, so that no pipe write can be the death of the daemon. Children
/// get SIGPIPE back at its default.
public final class ProviderRunner {
    /// The loop every run's events are delivered on.
    public let loop: RunnerEventLoop

    private static let ignoreBrokenPipes: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    private let shared: RunnerSharedState

    /// The sandbox every child is spawned in, if any.
    public var sandbox: ProviderSandbox? { shared.sandbox }

    /// The open-descriptor limits (RLIMIT_NOFILE) every child is given before its exec, in place of this process's; nil
    /// (the default): children inherit this process's. A daemon that raises its own soft limit for its clients gives
    /// its children the limits it started with, as systemd does for its services: a program using select(2) cannot take
    /// descriptors past 1024, and some close every descriptor up to the limit.
    public var childDescriptorLimit: rlimit? {
        get { shared.childDescriptorLimit }
        set { shared.childDescriptorLimit = newValue }
    }

    /// Creates a runner whose runs are driven by `loop`; with a `sandbox`, every child starts inside it.
    public init(loop: RunnerEventLoop, sandbox: ProviderSandbox? = nil) {
        self.loop = loop
        shared = RunnerSharedState(sandbox: sandbox, loop: loop)
        Self.ignoreBrokenPipes
    }


    /// Makes this process a child subreaper and kills, at the end of every run, whatever the runs left behind: every
    /// child of the process's main thread that is not a live run's (`OrphanReaper`). Only for a process whose children
    /// are all this runner's providers: the daemon, `run-provider`. `report` hears of each sweep that found something.
    public func adoptOrphans(report: ((_ killed: Int, _ reaped: Int) -> Void)? = nil) throws(SystemCallFailure) {
        try shared.adoptOrphans()
        if let report { shared.orphans?.report = { report(Int($0.killed), Int($0.reaped)) } }
    }

    /// Where every run gets a cgroup of its own (`RunCgroups`), killed whole at its end and capped as a whole where
    /// the controllers are there; nil (the default): runs have per-process limits only. `failure` hears why a run
    /// could not get one (it then runs with per-process limits).
    public func useCgroups(_ cgroups: RunCgroups?, failure: ((RunCgroups.Unavailable) -> Void)? = nil) {
        shared.cgroups = cgroups
        shared.cgroupFailure = failure
    }

    /// Kills and reaps whatever finished runs left behind now, waiting up to `seconds` for it to exit: for a daemon
    /// that stops, after its runs were ended. Returns how many processes were killed; nothing without
    /// `adoptOrphans()`.
    @discardableResult
    public func killLeftovers(waitingUpTo seconds: Double) -> Int {
        guard let orphans = shared.orphans else { return 0 }
        return Int(orphans.sweep(waitMilliseconds: Int32(max(0, min(seconds, 10)) * 1000)).killed)
    }

    /// Waits until every spawn queued on the sandbox is done and handed to its run, so a run ended (`cancel()`)
    /// before its child existed has it killed now rather than leave it behind: for a daemon that stops.
    public func settleQueuedSpawns() {
        shared.settleQueuedSpawns()
    }

    /// Starts `spec` and calls `completion` exactly once, on the loop, when the child has exited and its output has
    /// been read (or a limit was hit, or it could not start). Never calls `completion` from within `start`.
    @discardableResult
    public func start(_ spec: ProcessSpec, completion: @escaping (ProcessResult) -> Void) -> RunningProcess {
        let process = RunningProcess(spec: spec, loop: loop, shared: shared, completion: completion)
        process.launch()
        return process
    }
}
