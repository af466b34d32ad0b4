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

    /// Kills the whole process group now; the run then completes with `signal` (SIGKILL).
    public func cancel() {
        guard !isFinished else { return }
        killedByRunner = true
        signalGroup(SIGKILL)
    }

    func launch() {
        defer { launching = false }
        startTime = MonotonicClock.now()
        if let failure = spawnChild() {
            finish(imposing: failure)
            return
        }
        do {
            stdoutToken = try loop.watchReadable(fd: stdoutFD) { [self] in read(from: .stdout, untilEmpty: false) }
            stderrToken = try loop.watchReadable(fd: stderrFD) { [self] in read(from: .stderr, untilEmpty: false) }
            tokens.append(try loop.watchExit(pidfd: pidfd) { [self] in childExited() })
            tokens.append(try loop.schedule(after: spec.timeout) { [self] in timeOut() })
        } catch {
            killedByRunner = true
            signalGroup(SIGKILL)
            finish(imposing: .spawn(errno: EIO, message: "cannot watch the child: \(error)"))
        }
    }

    // MARK: - Spawning

    /// Starts the child. On failure nothing is left running or open, and the failure is returned.
    private func spawnChild() -> ProcessFailure? {
        guard let program = spec.argv.first, !program.isEmpty else {
            return .spawn(errno: EINVAL, message: "no program to run")
        }
        guard let path = Self.resolve(program, searchPath: spec.environment["PATH"]) else {
            return .spawn(errno: ENOENT, message: "\(program) not found in PATH")
        }
        var input: [Int32] = [-1, -1]
        var output: [Int32] = [-1, -1]
        var errors: [Int32] = [-1, -1]
        guard cspawn_pipe(&input, 1) == 0 else { return .spawn(errno: errno, message: "cannot create a pipe") }
        guard cspawn_pipe(&output, 0) == 0 else {
            let number = errno
            closeAll(input)
            return .spawn(errno: number, message: "cannot create a pipe")
        }
        guard cspawn_pipe(&errors, 0) == 0 else {
            let number = errno
            closeAll(input + output)
            return .spawn(errno: number, message: "cannot create a pipe")
        }
        if spec.stdin.count > 65536, cspawn_pipe_reserve(input[1], Int32(clamping: spec.stdin.count)) < 0 {
            let number = errno
            closeAll(input + output + errors)
            return .spawn(errno: number, message: "the request (\(spec.stdin.count) bytes) does not fit in a pipe")
        }

        var childPID: pid_t = 0
        let spawnError = Self.posixSpawn(
            &childPID, sandbox: shared.sandbox, path: path, argv: spec.argv, environment: spec.environment,
            workingDirectory: spec.workingDirectory, stdio: (input[0], output[1], errors[1])
        )
        closeAll([input[0], output[1], errors[1]])
        stdoutFD = output[0]
        stderrFD = errors[0]
        guard spawnError == 0 else {
            closeAll([input[1], output[0], errors[0]])
            stdoutFD = -1
            stderrFD = -1
            return .spawn(errno: spawnError, message: "cannot start \(path)")
        }
        pid = childPID

        pidfd = cspawn_pidfd_open(childPID)
        if pidfd < 0 {
            let number = errno
            close(input[1])
            kill(-childPID, SIGKILL)
            var status: Int32 = 0
            while waitpid(childPID, &status, 0) < 0 && errno == EINTR {}
            isReaped = true
            closeOutputs()
            return .spawn(errno: number, message: "pidfd_open failed")
        }
        if let memoryMax = spec.memoryMax, cspawn_limit_data(childPID, memoryMax) != 0 {
            let number = errno
            close(input[1])
            return abandonStartedChild(.spawn(errno: number, message: "cannot cap the memory of \(path)"))
        }
        let requestFailure = writeRequest(to: input[1])
        close(input[1])
        if let requestFailure { return abandonStartedChild(requestFailure) }
        return nil
    }

    /// Writes the whole request without blocking: the pipe is empty and was sized for it, so it fits at once.
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
            } else if result < 0 && errno == EPIPE {
                // The child closed its stdin without reading: its choice, and its answer will tell.
                return nil
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
        _ = cspawn_reap(pidfd, &status)
        isReaped = true
        close(pidfd)
        pidfd = -1
        closeOutputs()
        return failure
    }

    private static func posixSpawn(
        _ childPID: inout pid_t, sandbox: ProviderSandbox?, path: String, argv: [String], environment: [String: String],
        workingDirectory: String?, stdio: (Int32, Int32, Int32)
    ) -> Int32 {
        var attributes = posix_spawnattr_t()
        var actions = posix_spawn_file_actions_t()
        defer {
            posix_spawnattr_destroy(&attributes)
            posix_spawn_file_actions_destroy(&actions)
        }
        var error = cspawn_attr_init_isolated(&attributes)
        guard error == 0 else { return error }
        if let workingDirectory {
            error = workingDirectory.withCString {
                cspawn_file_actions_init(&actions, stdio.0, stdio.1, stdio.2, $0)
            }
        } else {
            error = cspawn_file_actions_init(&actions, stdio.0, stdio.1, stdio.2, nil)
        }
        guard error == 0 else { return error }
        let arguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        let variables: [UnsafeMutablePointer<CChar>?] =
            environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            arguments.forEach { free($0) }
            variables.forEach { free($0) }
        }
        if let sandbox {
            return sandbox.spawn(&childPID, path: path, actions: &actions, attributes: &attributes,
                                 arguments: arguments, variables: variables)
        }
        return posix_spawn(&childPID, path, &actions, &attributes, arguments, variables)
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
            let count = Glibc.read(fd, buffer.baseAddress, buffer.count)
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
        do {
            tokens.append(try loop.schedule(after: spec.drainAfterExit) { [self] in finish(imposing: nil) })
        } catch {
            finish(imposing: nil)
        }
    }

    private func timeOut() {
        guard !hasExited else { return }
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
        if pidfd >= 0 && !isReaped {
            if cspawn_reap(pidfd, &status) == 0 {
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
