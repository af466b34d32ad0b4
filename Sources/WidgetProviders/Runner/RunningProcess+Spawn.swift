import CSpawn

#if canImport(Glibc)
import Glibc
#endif

/// Starting the child: the pipes, the request, the spawn (here or queued on the sandbox's thread) and the take-over.
extension RunningProcess {
    func launch() {
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
            // Nothing was started: the spawn, released here, closes the child's ends.
            finish(imposing: .spawn(errno: EIO, message: "cannot watch the child: \(error)"))
            return
        }
        queuedSpawn = prepared
        if let sandbox = shared.sandbox {
            transition(.queued)
            shared.queue(prepared, on: sandbox, for: self)
            return
        }
        prepared.spawnHere()
        spawned()
    }

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
        // the pipe's size: its writing end can stay blocking, which saves a system call a run. A larger one might
        // not fit a pipe shrunk by the user's pipe-buffer quota, and must find out without blocking.
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
        // The spawn owns the child's ends from here on, and closes them once the child has its copies.
        let spawn = shared.spawn(
            of: SpawnProgram.Key(path: path, argv: spec.argv, environment: spec.environment),
            stdio: (input[0], output[1], errors[1]), outputEnd: output[0],
            workingDirectory: spec.workingDirectory, dataLimit: spec.memoryMax, tasksMax: spec.tasksMax, tag: tag,
            writableDirectory: spec.writableDirectory)
        stdoutFD = output[0]
        stderrFD = errors[0]
        return .success(spawn)
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

    /// The spawn is done (on the sandbox's thread, or here): take the child over, or fail the run.
    func spawned() {
        guard let spawn = queuedSpawn else { return }
        queuedSpawn = nil
        let failure = takeOver(spawn)
        // The child is known before anybody hears of it: a handler may ask about the run, or end it.
        let action = failure == nil ? transition(.spawned) : .none
        let handlers = startedHandlers
        startedHandlers = []
        for handler in handlers { handler(pid) }
        if let failure {
            abandon(failure)
            return
        }
        guard case .carryOut(let due) = action, phase.isLive else { return }
        if due.contains(.cancelled) { signalGroup(SIGKILL) }
        if due.contains(.lasts) {
            guard watchLasting(tellingHandlers: !due.contains(.cancelled)) else { return }
        }
        if due.contains(.timedOut) { timeOut() }
    }

    /// Takes the child over: its exit watch, set by the spawning thread (through the end of its output in the exit
    /// poller, or its pidfd). The failure, if any: the run is then abandoned.
    private func takeOver(_ spawn: QueuedSpawn) -> ProcessFailure? {
        guard spawn.result == 0 else {
            return .spawn(errno: spawn.result, message: spawn.failureMessage(program: programPath))
        }
        pid = spawn.pid
        pidfd = spawn.pidfd
        if pidfd < 0 && spawn.pidfdErrno != 0 {
            return .spawn(errno: spawn.pidfdErrno, message: "pidfd_open failed")
        }
        if spawn.pollerErrno != 0 {
            return .spawn(errno: spawn.pollerErrno, message: "cannot watch the child's exit")
        }
        // Without an exit poller the spawning thread opened the pidfd; it is watched on the loop.
        if shared.exitPoller < 0 { return watchPidfd() }
        return nil
    }

    /// Watches the child's pidfd: in the exit poller, or on the loop when there is none. The failure, if any.
    func watchPidfd() -> ProcessFailure? {
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

    func closeAll(_ descriptors: [Int32]) {
        for fd in descriptors where fd >= 0 { close(fd) }
    }
}
