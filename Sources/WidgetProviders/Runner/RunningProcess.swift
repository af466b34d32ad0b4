import CSpawn

#if canImport(Glibc)
import Glibc
#endif

/// One run of a child process, from spawn to completion: the handle `ProviderRunner.start` returns.
///
/// Completion comes once the child has exited and stdout and stderr reached end-of-file. A grandchild that keeps
/// them open does not hold the run: after the child's exit, whatever is readable is drained, and after at most
/// `drainAfterExit` the group is killed and the run completes.
///
/// The run's state is its `Phase`, changed only by `transition(_:)`, with the runner's reason for ending it kept as a
/// `Stop`. The work is split by concern: spawning the child (`RunningProcess+Spawn`), reading its output
/// (`RunningProcess+Output`), and ending the run (`RunningProcess+Teardown`).
public final class RunningProcess {
    /// The child's process id, which is also its process group id; 0 if it never started.
    public internal(set) var pid: Int32 = 0
    /// Whether the completion has been called (or is about to be, for a run that ended while it was being started).
    public var isFinished: Bool { !phase.isLive }

    let spec: ProcessSpec
    let loop: RunnerEventLoop
    let shared: RunnerSharedState
    let completion: (ProcessResult) -> Void

    /// Where the run is; changed only by `transition(_:)`.
    private(set) var phase = Phase.launching
    /// Why the runner ended the run, if it did (`record(_:)`).
    private(set) var stop: Stop?

    /// The run's tag with the runner (`RunnerSharedState.runLaunched`).
    var tag: UInt64 = 0
    var startTime = 0.0
    /// The resolved program, for messages.
    var programPath = ""
    /// The spawn, from its preparation until the run takes the child over.
    var queuedSpawn: QueuedSpawn?
    var pidfd: Int32 = -1
    var stdoutFD: Int32 = -1
    var stderrFD: Int32 = -1
    var stdout: [UInt8] = []
    var stderrTail: [UInt8] = []
    /// The run's timers and its exit watch on the loop, cancelled when it finishes.
    var tokens: [RunnerEventToken] = []
    var stdoutToken: RunnerEventToken?
    var stderrToken: RunnerEventToken?
    /// The completion of a run that ended while it was being started, delivered on the loop's next turn.
    var deferredCompletion: RunnerEventToken?
    var startedHandlers: [(Int32) -> Void] = []
    var lastingHandlers: [(Int32) -> Void] = []

    init(
        spec: ProcessSpec, loop: RunnerEventLoop, shared: RunnerSharedState,
        completion: @escaping (ProcessResult) -> Void
    ) {
        self.spec = spec
        self.loop = loop
        self.shared = shared
        self.completion = completion
    }

    /// Kills the whole process group now; the run then completes with `signal` (SIGKILL). A run whose spawn is still
    /// queued is killed once the loop takes the spawn over: at the child's exit, or at the latest when the run's
    /// stream watch is due (`ProcessSpec.streamWatchDelay`).
    public func cancel() {
        guard takeOverFinishedSpawn() else { return }
        record(.cancelled)
        if transition(.cancelled) == .kill { signalGroup(SIGKILL) }
    }

    /// Calls `body` with the child's pid once it is known (at once if it is), or with 0 if it could not start; once,
    /// before the completion.
    public func whenStarted(_ body: @escaping (Int32) -> Void) {
        if case .spawning = phase {
            startedHandlers.append(body)
        } else {
            body(pid)
        }
    }

    /// Calls `body` with the child's pid once the run has gone on for its stream-watch delay
    /// (`ProcessSpec.streamWatchDelay`) with the child still running, as far as the loop knows (at once if that moment
    /// has passed); never for a run that ends, or is heard to end, sooner.
    public func whenLasting(_ body: @escaping (Int32) -> Void) {
        if phase.hasLasted {
            body(pid)
        } else if phase.isLive {
            lastingHandlers.append(body)
        }
    }

    /// Whether the child's exit is watched through a pidfd (rather than the end of its output): for tests.
    var watchesExitThroughPidfd: Bool { pidfd >= 0 }

    /// Moves the run to the phase `event` leads to (`Phase.after(_:)`), and returns what it is to do there: the one
    /// place the phase changes.
    @discardableResult
    func transition(_ event: Phase.Event) -> Phase.Action {
        let (next, action) = phase.after(event)
        phase = next
        return action
    }

    /// Keeps `stop` as the reason the runner ended the run, unless the one kept outranks it (`Stop.merged(with:)`).
    func record(_ newer: Stop) {
        stop = stop.map { $0.merged(with: newer) } ?? newer
    }

    /// How long after its launch the run's streams are watched: `ProcessSpec.streamWatchDelay`, within the timeout.
    var streamWatchDelay: Double { min(max(0, spec.streamWatchDelay), spec.timeout) }

    /// The stream watch is due (`ProcessSpec.streamWatchDelay`; the runner's timer calls this): watch stdout, stderr
    /// and the exit itself, and time the rest out.
    func streamWatchDue() {
        // Also the moment a quiet run's finished spawn is taken over, if no exit came first.
        guard takeOverFinishedSpawn() else { return }
        switch transition(.streamWatchDue) {
        case .watch:
            guard watchLasting(tellingHandlers: true) else { return }
        default:
            // The watches need the child: they start at the take-over, which the sandbox is asked to report as soon
            // as the spawn is done rather than leave to the end of the child's output (a child that fills its pipe
            // before anybody reads it never ends its output).
            if case .spawning = phase, let spawn = queuedSpawn { shared.requestReport(of: spawn) }
        }
        let remaining = spec.timeout - streamWatchDelay
        guard remaining > 0 else {
            timeOut()
            return
        }
        do {
            tokens.append(try loop.schedule(after: remaining) { [self] in timeOut() })
        } catch {
            timeOut()
        }
    }

    /// Before acting on a run whose spawn is queued: takes over the runner's finished spawns, this one's if it is
    /// done (the spawning thread reports only failed spawns on its own). Returns whether the run is still going; the
    /// take-over may have finished it (a failed spawn).
    func takeOverFinishedSpawn() -> Bool {
        guard phase.isLive else { return false }
        // A spawn being taken over (`queuedSpawn` is cleared first) is not looked for again.
        if case .spawning = phase, queuedSpawn != nil { shared.deliverFinishedSpawns() }
        return phase.isLive
    }

    /// The run has gone on for its stream-watch delay, and its child is known: stdout and stderr are watched, and the
    /// exit apart from the output, which a grandchild may hold open after it; then, unless told not to, the
    /// `whenLasting` handlers are told. Returns false if the run was finished because the loop refused a watch.
    func watchLasting(tellingHandlers: Bool) -> Bool {
        guard phase.childRuns else { return true }
        if let failure = watchStreams() {
            finish(imposing: failure)
            return false
        }
        guard watchExitApart() else { return false }
        guard tellingHandlers else { return true }
        let handlers = lastingHandlers
        lastingHandlers = []
        for handler in handlers { handler(pid) }
        return true
    }
}
