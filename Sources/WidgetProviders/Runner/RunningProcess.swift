import CSpawn

#if canImport(Glibc)
import Glibc
#endif

/// One run of a child process, from spawn to completion: the handle `ProviderRunner.start` returns.
///
/// Completion comes once the child has exited and stdout and stderr reached end-of-file. A grandchild that keeps
/// them open does not hold the run: after the child's exit, whatever is readable is drained, and after at most
/// `drainAfterExit` the group is killed and the run completes.
public final class RunningProcess {
    /// The child's process id, which is also its process group id; 0 if it never started.
    public private(set) var pid: Int32 = 0
    /// Whether the completion has been called (or is about to be, for a run that never started).
    public private(set) var isFinished = false

    private let spec: ProcessSpec
    private let loop: RunnerEventLoop
    private let completion: (ProcessResult) -> Void

    private var pidfd: Int32 = -1
    private var stdoutFD: Int32 = -1
    private var stderrFD: Int32 = -1
    private var stdout: [UInt8] = []
    private var stderrTail: [UInt8] = []
    private var startTime = 0.0
    private var hasExited = false
    private var isReaped = false
    private var timedOut = false
    private var outputTooLarge = false
    private var killedByRunner = false
    private var launching = true
    private var tokens: [RunnerEventToken] = []
    /// The completion of a run that ended while it was being started, delivered on the loop's next turn.
    private var deferredCompletion: RunnerEventToken?
    private var stdoutToken: RunnerEventToken?
    private var stderrToken: RunnerEventToken?

    private let shared: RunnerSharedState

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
        killedByRunner = true
        if spawning {
            cancelledWhileSpawning = true
            return
        }
        signalGroup(SIGKILL)
    }

    /// Calls `body` with the child's pid once it is known (at once if it is), or with 0 if it could not start; once,
    /// before the completion.
    public func whenStarted(_ body: @escaping (Int32) -> Void) {
        if spawning {
            startedHandlers.append(body)
        } else {
            body(pid)
        }
    }

    /// Calls `body` with the child's pid once the run has gone on for its stream-watch delay
    /// (`ProcessSpec.streamWatchDelay`) with the child still running, as far as the loop knows (at once if that moment
    /// has passed); never for a run that ends, or is heard to end, sooner.
    public func whenLasting(_ body: @escaping (Int32) -> Void) {
        if hasLasted {
            body(pid)
        } else if !isFinished {
            lastingHandlers.append(body)
        }
    }

    func launch() {
        defer { launching = false }
        startTime = MonotonicClock.now()
        do {
            tag = try shared.runLaunched(self)
        } catch {
            finish(imposing: .spawn(errno: EIO, message: "cannot watch the runner's children: \(error)"))
            return
        }
        let prepared: QueuedSpawn
        switch prepareChild() {
        case .failure(let failure):
            finish(imposing: failure)
            return
        case .success(let spawn):
            prepared = spawn
        }
        do {
            try shared.watchStreams(of: tag, at: startTime + streamWatchDelay)
        } catch {
            abandonUnspawned(.spawn(errno: EIO, message: "cannot watch the child: \(error)"))
            return
        }
        queuedSpawn = prepared
        if let sandbox = shared.sandbox {
            spawning = true
            shared.queue(prepared, on: sandbox, for: self)
            return
        }
        prepared.spawnHere()
        spawned()
    }

    /// How long after its launch the run's streams are watched: `ProcessSpec.streamWatchDelay`, within the timeout.
    private var streamWatchDelay: Double { min(max(0, spec.streamWatchDelay), spec.timeout) }

    /// The stream watch is due (`ProcessSpec.streamWatchDelay`; the runner's timer calls this): watch stdout, stderr
    /// and the exit itself, and time the rest out.
    func streamWatchDue() {
        let delay = streamWatchDelay
        // Also the moment a quiet run's finished spawn is taken over, if no exit came first.
        guard takeOverFinishedSpawn() else { return }
        if spawning {
            // The watches need the child: they start at the take-over, which the sandbox is asked to report as soon
            // as the spawn is done rather than leave to the end of the child's output (a child that fills its pipe
            // before anybody reads it never ends its output).
            if let spawn = queuedSpawn { shared.requestReport(of: spawn) }
            lastsWhenSpawned = true
        } else {
            guard lasted(tellingHandlers: true) else { return }
        }
        let remaining = spec.timeout - delay
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

    /// Watches the streams still open and not yet watched; the failure if the loop refuses.
    private func watchStreams() -> ProcessFailure? {
        do {
            if stdoutFD >= 0, stdoutToken == nil {
                stdoutToken = try loop.watchReadable(fd: stdoutFD) { [self] in read(from: .stdout, untilEmpty: false) }
            }
            if stderrFD >= 0, stderrToken == nil {
                stderrToken = try loop.watchReadable(fd: stderrFD) { [self] in read(from: .stderr, untilEmpty: false) }
            }
            return nil
        } catch {
            return .spawn(errno: EIO, message: "cannot watch the child: \(error)")
        }
    }

    /// Before acting on a run whose spawn is queued: takes over the runner's finished spawns, this one's if it is
    /// done (the spawning thread reports only failed spawns on its own). Returns whether the run is still going; the
    /// take-over may have finished it (a failed spawn).
    private func takeOverFinishedSpawn() -> Bool {
        guard !isFinished else { return false }
        if spawning { shared.deliverFinishedSpawns() }
        return !isFinished
    }

    // MARK: - Spawning

    private var queuedSpawn: QueuedSpawn?
    /// The spawn is queued on the sandbox's thread: no pid yet.
    private var spawning = false
    private var cancelledWhileSpawning = false
    private var timedOutWhileSpawning = false
    /// The run's tag with the runner (`RunnerSharedState.runLaunched`).
    private var tag: UInt64 = 0
    private var startedHandlers: [(Int32) -> Void] = []
    private var lastingHandlers: [(Int32) -> Void] = []
    /// The stream-watch delay passed with the child running; `whenLasting` handlers have been told.
    private var hasLasted = false
    /// The stream-watch delay passed while the spawn was still queued: the run has lasted once it is spawned.
    private var lastsWhenSpawned = false
    private var programPath = ""

    private enum Preparation {
        case success(QueuedSpawn)
        case failure(ProcessFailure)
    }

    /// Creates the pipes, writes the request into stdin's and closes the writing end (so the child finds the whole
    /// request and then end-of-file, and never waits for this loop), and prepares the spawn. On failure nothing is
    /// left open, and the failure is returned.
    private func prepareChild() -> Preparation {
        guard let program = spec.argv.first, !program.isEmpty else {
            return .failure(.spawn(errno: EINVAL, message: "no program to run"))
        }
        guard let path = Self.resolve(program, searchPath: spec.environment["PATH"]) else {
            return .failure(.spawn(errno: ENOENT, message: "\(program) not found in PATH"))
        }
        programPath = path
        var input: [Int32] = [-1, -1]
        var output: [Int32] = [-1, -1]
        var errors: [Int32] = [-1, -1]
        // A request of at most PIPE_BUF bytes goes into the new, empty pipe in one write that cannot block, whatever
        // the pipe's size: its writing end can stay blocking, one fcntl fewer per run. A larger one might not fit a
        // pipe shrunk by the user's pipe-buffer quota, and must find out without blocking.
        let inputNonblockingEnd: Int32 = spec.stdin.count <= Int(PIPE_BUF) ? -1 : 1
        guard cspawn_pipe(&input, inputNonblockingEnd) == 0 else {
            return .failure(.spawn(errno: errno, message: "cannot create a pipe"))
        }
        // The parent reads its ends without waiting (`readChunk`), or they are made non-blocking here.
        let parentNonblockingEnd: Int32 = RunnerSharedState.readsPipesWithoutWaiting ? -1 : 0
        guard cspawn_pipe(&output, parentNonblockingEnd) == 0 else {
            let number = errno
            closeAll(input)
            return .failure(.spawn(errno: number, message: "cannot create a pipe"))
        }
        guard cspawn_pipe(&errors, parentNonblockingEnd) == 0 else {
            let number = errno
            closeAll(input + output)
            return .failure(.spawn(errno: number, message: "cannot create a pipe"))
        }
        if spec.stdin.count > 65536, cspawn_pipe_reserve(input[1], Int32(clamping: spec.stdin.count)) < 0 {
            let number = errno
            closeAll(input + output + errors)
            return .failure(.spawn(errno: number,
                                   message: "the request (\(spec.stdin.count) bytes) does not fit in a pipe"))
        }
        if let failure = writeRequest(to: input[1]) {
            closeAll(input + output + errors)
            return .failure(failure)
        }
        close(input[1])
        do {
            // The spawn owns the child's ends from here on, and closes them once the child has its copies.
            let spawn = try shared.spawn(
                of: SpawnProgram.Key(path: path, argv: spec.argv, environment: spec.environment),
                stdio: (input[0], output[1], errors[1]), outputEnd: output[0],
                workingDirectory: spec.workingDirectory, dataLimit: spec.memoryMax, tag: tag)
            stdoutFD = output[0]
            stderrFD = errors[0]
            return .success(spawn)
        } catch {
            closeAll([input[0]] + output + errors)
            return .failure(.spawn(errno: error.errno, message: "cannot start \(path)"))
        }
    }

    /// A run that fails before its spawn was handed over: nothing was started (the spawn closes the child's ends).
    private func abandonUnspawned(_ failure: ProcessFailure) {
        queuedSpawn = nil
        finish(imposing: failure)
    }

    /// The spawn is done (on the sandbox's thread, or here): take the child over, or fail the run.
    func spawned() {
        spawning = false
        guard let spawn = queuedSpawn else { return }
        queuedSpawn = nil
        let failure = takeOver(spawn)
        let handlers = startedHandlers
        startedHandlers = []
        for handler in handlers { handler(pid) }
        if let failure {
            finish(imposing: failure)
            return
        }
        if cancelledWhileSpawning { signalGroup(SIGKILL) }
        if lastsWhenSpawned {
            guard lasted(tellingHandlers: !cancelledWhileSpawning) else { return }
        }
        if timedOutWhileSpawning { timeOut() }
    }

    /// The run has gone on for its stream-watch delay, and its child is known: stdout and stderr are watched, and the
    /// exit apart from the output, which a grandchild may hold open after it; then, unless told not to, the
    /// `whenLasting` handlers are told. Returns false if the run was finished because the loop refused a watch.
    private func lasted(tellingHandlers: Bool) -> Bool {
        guard !hasExited, !isFinished, !hasLasted else { return true }
        if let failure = watchStreams() {
            killedByRunner = true
            finish(imposing: failure)
            return false
        }
        guard watchExitApart() else { return false }
        guard tellingHandlers else { return true }
        hasLasted = true
        let handlers = lastingHandlers
        lastingHandlers = []
        for handler in handlers { handler(pid) }
        return true
    }

    /// Takes the child over: its exit watch and memory cap, set by the spawning thread (through the end of its output
    /// in the exit poller, or its pidfd); on failure the child (if any) is killed and reaped, and the failure
    /// returned.
    private func takeOver(_ spawn: QueuedSpawn) -> ProcessFailure? {
        guard spawn.result == 0 else {
            closeOutputs()
            return .spawn(errno: spawn.result, message: "cannot start \(programPath)")
        }
        let childPID = spawn.pid
        pid = childPID
        pidfd = spawn.pidfd
        if pidfd < 0 && spawn.pidfdErrno != 0 {
            kill(-childPID, SIGKILL)
            var status: Int32 = 0
            while waitpid(childPID, &status, 0) < 0 && errno == EINTR {}
            isReaped = true
            closeOutputs()
            return .spawn(errno: spawn.pidfdErrno, message: "pidfd_open failed")
        }
        if spawn.limitErrno != 0 {
            return abandonStartedChild(.spawn(errno: spawn.limitErrno,
                                              message: "cannot cap the memory of \(programPath)"))
        }
        if spawn.descriptorLimitErrno != 0 {
            return abandonStartedChild(.spawn(errno: spawn.descriptorLimitErrno,
                                              message: "cannot set the descriptor limit of \(programPath)"))
        }
        if spawn.pollerErrno != 0 {
            return abandonStartedChild(.spawn(errno: spawn.pollerErrno, message: "cannot watch the child's exit"))
        }
        // Without an exit poller the spawning thread opened the pidfd; it is watched on the loop.
        if shared.exitPoller < 0, let failure = watchPidfd() { return abandonStartedChild(failure) }
        return nil
    }

    /// The exit poller reported the child's exit, or with `outputEnded` the end of its output (each once: the watches
    /// are one-shot). The runner has taken the spawn over before it reports (`RunnerSharedState.deliverExits`).
    func childExitReported(outputEnded: Bool) {
        guard !spawning, !hasExited, !isFinished else { return }
        // The output's last writer is usually the child, going as it exits; it may also have closed its stdout and
        // gone on, or be a moment from its exit (its files are closed before it becomes a zombie).
        if outputEnded && cspawn_has_exited(pid) == 0 {
            _ = watchExitApart()
            return
        }
        childExited()
    }

    /// Whether the child's exit is watched through a pidfd (rather than the end of its output): for tests.
    var watchesExitThroughPidfd: Bool { pidfd >= 0 }

    /// Watches the child's exit through a pidfd, when the end of its output no longer can: the output ended or was
    /// closed first, or the run lasts (a grandchild may hold the output past the child's exit). Returns false if the
    /// run was finished for want of a watch.
    @discardableResult
    private func watchExitApart() -> Bool {
        guard pidfd < 0, pid > 0, !isReaped, !hasExited, !isFinished else { return true }
        let opened = cspawn_pidfd_open(pid)
        let failure: ProcessFailure?
        if opened < 0 {
            failure = .spawn(errno: errno, message: "pidfd_open failed")
        } else {
            pidfd = opened
            failure = watchPidfd()
        }
        guard let failure else { return true }
        finish(imposing: abandonStartedChild(failure))
        return false
    }

    /// Watches the child's pidfd: in the exit poller, or on the loop when there is none. The failure, if any.
    private func watchPidfd() -> ProcessFailure? {
        if shared.exitPoller >= 0 {
            guard cspawn_exit_poller_watch_pidfd(shared.exitPoller, pidfd, tag) == 0 else {
                return .spawn(errno: errno, message: "cannot watch the child's exit")
            }
            return nil
        }
        do {
            tokens.append(try loop.watchExit(pidfd: pidfd) { [self] in childExited() })
            return nil
        } catch {
            return .spawn(errno: EIO, message: "cannot watch the child: \(error)")
        }
    }

    /// Writes the whole request without blocking: the pipe is empty, nobody reads it yet, and it was sized for the
    /// request, so it fits at once.
    private func writeRequest(to fd: Int32) -> ProcessFailure? {
        guard !spec.stdin.isEmpty else { return nil }
        var written = 0
        while written < spec.stdin.count {
            let result = spec.stdin.withUnsafeBytes { bytes in
                write(fd, bytes.baseAddress! + written, bytes.count - written)
            }
            if result > 0 {
                written += result
            } else if result < 0 && errno == EINTR {
                continue
            } else {
                let number = result < 0 ? errno : EAGAIN
                return .spawn(errno: number, message: "cannot write the request (\(spec.stdin.count) bytes)")
            }
        }
        return nil
    }

    /// Kills and reaps a child that was started but cannot be run properly.
    private func abandonStartedChild(_ failure: ProcessFailure) -> ProcessFailure {
        killedByRunner = true
        signalGroup(SIGKILL)
        var status = cspawn_exit_status()
        _ = cspawn_reap_pid(pid, &status)
        isReaped = true
        if pidfd >= 0 { close(pidfd) }
        pidfd = -1
        closeOutputs()
        return failure
    }

    /// The path to execute: `program` itself when it has a slash, else the first executable match in `searchPath`.
    static func resolve(_ program: String, searchPath: String?) -> String? {
        if program.utf8.contains(UInt8(ascii: "/")) { return program }
        let directories = (searchPath ?? ProcessSpec.minimalEnvironment["PATH"] ?? "").split(separator: ":")
        for directory in directories {
            let candidate = "\(directory)/\(program)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    // MARK: - Events

    private enum Stream { case stdout, stderr }

    private func read(from stream: Stream, untilEmpty: Bool) {
        let fd = stream == .stdout ? stdoutFD : stderrFD
        guard fd >= 0 else { return }
        let buffer = shared.bytes
        while true {
            let count = Self.readChunk(fd, into: buffer)
            if count > 0 {
                guard accept(UnsafeRawBufferPointer(rebasing: buffer[..<count]), from: stream) else { return }
                if count < buffer.count && !untilEmpty { return }
            } else if count < 0 && errno == EINTR {
                continue
            } else if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                return
            } else {
                closeStream(stream)
                if hasExited && stdoutFD < 0 && stderrFD < 0 && !launching { finish(imposing: nil) }
                return
            }
        }
    }

    /// What is in the pipe now, up to the buffer's size: the count, 0 at end-of-file, or -1 with errno (EAGAIN when
    /// nothing is there yet). It never waits, however the descriptor is flagged.
    private static func readChunk(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        if RunnerSharedState.readsPipesWithoutWaiting {
            return cspawn_read_nowait(fd, buffer.baseAddress, buffer.count)
        }
        return Glibc.read(fd, buffer.baseAddress, buffer.count)
    }

    /// Keeps a chunk; returns false when the stream was closed because stdout passed its limit.
    private func accept(_ chunk: UnsafeRawBufferPointer, from stream: Stream) -> Bool {
        switch stream {
        case .stdout:
            let room = spec.stdoutLimit - stdout.count
            guard chunk.count <= room else {
                stdout.append(contentsOf: chunk.prefix(max(0, room)))
                outputTooLarge = true
                killedByRunner = true
                signalGroup(SIGKILL)
                closeStream(.stdout)
                return false
            }
            stdout.append(contentsOf: chunk)
        case .stderr:
            stderrTail.append(contentsOf: chunk)
            if stderrTail.count > 2 * spec.stderrTailSize {
                stderrTail.removeFirst(stderrTail.count - spec.stderrTailSize)
            }
        }
        return true
    }

    private func childExited() {
        hasExited = true
        read(from: .stdout, untilEmpty: true)
        read(from: .stderr, untilEmpty: true)
        guard !isFinished else { return }
        if stdoutFD < 0 && stderrFD < 0 {
            finish(imposing: nil)
            return
        }
        // Something the child started holds a stream open: read what it writes while the drain lasts.
        if watchStreams() != nil {
            finish(imposing: nil)
            return
        }
        do {
            tokens.append(try loop.schedule(after: spec.drainAfterExit) { [self] in finish(imposing: nil) })
        } catch {
            finish(imposing: nil)
        }
    }

    private func timeOut() {
        guard !hasExited, takeOverFinishedSpawn(), !hasExited else { return }
        if spawning {
            timedOutWhileSpawning = true
            return
        }
        timedOut = true
        killedByRunner = true
        signalGroup(SIGTERM)
        do {
            tokens.append(try loop.schedule(after: spec.grace) { [self] in signalGroup(SIGKILL) })
        } catch {
            signalGroup(SIGKILL)
        }
    }

    // MARK: - Completion

    private func finish(imposing imposed: ProcessFailure?) {
        guard !isFinished else { return }
        isFinished = true
        lastingHandlers = []
        defer { shared.runEnded(tag) }
        read(from: .stdout, untilEmpty: true)
        read(from: .stderr, untilEmpty: true)
        for token in tokens { token.cancel() }
        tokens.removeAll()
        stdoutToken?.cancel()
        stderrToken?.cancel()
        // Before reaping, the zombie child pins the pid that names the group, so this cannot hit a stranger.
        signalGroup(SIGKILL)
        var status = cspawn_exit_status()
        var termination: ProcessTermination?
        var reapFailure: ProcessFailure?
        if pid > 0 && !isReaped {
            if cspawn_reap_pid(pid, &status) == 0 {
                termination = status.exited != 0 ? .exited(status.status) : .signaled(status.status)
            } else {
                reapFailure = .spawn(errno: errno, message: "cannot reap process \(pid)")
            }
            isReaped = true
        }
        if pidfd >= 0 { close(pidfd) }
        pidfd = -1
        closeOutputs()
        let peak = termination == nil ? nil : ownPeak(status.max_rss_bytes)
        let tail = String(decoding: stderrTail.suffix(spec.stderrTailSize), as: UTF8.self)
        let result = ProcessResult(
            pid: pid, stdout: stdout, stderrTail: tail, termination: termination,
            failure: imposed ?? reapFailure ?? classify(termination, stderrTail: tail, peak: peak),
            duration: MonotonicClock.now() - startTime, peakMemoryBytes: peak
        )
        if launching {
            // Never call back from inside `start`: the caller may not have stored the handle yet.
            // The token must outlive this call: a dropped token cancels its timer, and the run would never end
            // (a provider whose spawn failed, e.g. ETXTBSY, stayed "running" for ever).
            deferredCompletion = try? loop.schedule(after: 0) { [self] in
                deferredCompletion = nil
                completion(result)
            }
            if deferredCompletion == nil { completion(result) }
        } else {
            completion(result)
        }
    }

    private func classify(_ termination: ProcessTermination?, stderrTail: String, peak: UInt64?) -> ProcessFailure? {
        if timedOut { return .timeout(seconds: spec.timeout) }
        if outputTooLarge { return .outputTooLarge(limit: spec.stdoutLimit) }
        switch termination {
        case nil, .exited(0):
            return nil
        case .exited(let code):
            return hitMemoryCap(termination, stderrTail: stderrTail, peak: peak) ?? .exit(code)
        case .signaled(let signo):
            return hitMemoryCap(termination, stderrTail: stderrTail, peak: peak) ?? .signal(signo)
        }
    }

    private func hitMemoryCap(
        _ termination: ProcessTermination?, stderrTail: String, peak: UInt64?
    ) -> ProcessFailure? {
        guard let cap = spec.memoryMax else { return nil }
        if ProcessResult.reportsOutOfMemory(stderrTail) { return .memory(limit: cap) }
        if termination == .signaled(SIGKILL), !killedByRunner, let peak, peak >= cap / 10 * 9 {
            return .memory(limit: cap)
        }
        return nil
    }

    // MARK: - Helpers

    /// The child's own peak RSS, if the rusage figure is surely its own. Until its exec, the child shares the
    /// spawner's memory (posix_spawn uses CLONE_VM), and the kernel counts that in its peak; so a figure not above
    /// the spawner's own peak may be the spawner's, and is not reported.
    private func ownPeak(_ childPeak: UInt64) -> UInt64? {
        // The runner's peak only grows, so a figure at or below the last reading needs no new one.
        if childPeak <= shared.spawnerPeakBytes { return nil }
        var usage = rusage()
        guard getrusage(Int32(RUSAGE_SELF.rawValue), &usage) == 0 else { return nil }
        shared.spawnerPeakBytes = UInt64(max(0, usage.ru_maxrss)) * 1024
        return childPeak > shared.spawnerPeakBytes ? childPeak : nil
    }

    private func signalGroup(_ signo: Int32) {
        guard pid > 0 && !isReaped else { return }
        kill(-pid, signo)
    }

    /// Stops watching a stream and closes it; the watch goes first, so that it never sees a reused descriptor.
    private func closeStream(_ stream: Stream) {
        switch stream {
        case .stdout:
            stdoutToken?.cancel()
            stdoutToken = nil
            if stdoutFD >= 0 { close(stdoutFD) }
            stdoutFD = -1
            // Closing it dropped the exit watch on its end, if that was the one.
            watchExitApart()
        case .stderr:
            stderrToken?.cancel()
            stderrToken = nil
            if stderrFD >= 0 { close(stderrFD) }
            stderrFD = -1
        }
    }

    private func closeOutputs() {
        closeStream(.stdout)
        closeStream(.stderr)
    }

    private func closeAll(_ descriptors: [Int32]) {
        for fd in descriptors where fd >= 0 { close(fd) }
    }
}
