import CSpawn

#if canImport(Glibc)
import Glibc
#endif

/// Ending the run: the child's exit and the drain after it, the timeout, and the completion, which kills what is left
/// of the group, reaps the child and classifies the result.
extension RunningProcess {
    func childExited() {
        guard transition(.exited) == .drain else { return }
        read(from: .stdout, untilEmpty: true)
        read(from: .stderr, untilEmpty: true)
        guard phase.isLive else { return }
        if stdoutFD < 0 && stderrFD < 0 {
            finish()
            return
        }
        // Something the child started holds a stream open: read what it writes while the drain lasts.
        if watchStreams() != nil {
            finish()
            return
        }
        do {
            tokens.append(try loop.schedule(after: spec.drainAfterExit) { [self] in finish() })
        } catch {
            finish()
        }
    }

    func timeOut() {
        // A run still spawning keeps the timeout until its child is known (`Phase.Due`); one whose child has exited
        // has nothing left to time out.
        guard takeOverFinishedSpawn(), transition(.timedOut) == .terminate else { return }
        record(.timedOut)
        signalGroup(SIGTERM)
        do {
            tokens.append(try loop.schedule(after: spec.grace) { [self] in signalGroup(SIGKILL) })
        } catch {
            signalGroup(SIGKILL)
        }
    }

    /// A run that cannot go on with the child it started: the group is killed at once, and the run finished with
    /// `failure`.
    func abandon(_ failure: ProcessFailure) {
        signalGroup(SIGKILL)
        finish(imposing: failure)
    }

    /// Ends the run: reads what is left, kills the group, reaps the child and delivers the result, failed with
    /// `imposed` if given.
    func finish(imposing imposed: ProcessFailure? = nil) {
        guard phase.isLive else { return }
        if let imposed { record(.failed(imposed)) }
        let wasLaunching = phase == .launching
        transition(.finished)
        lastingHandlers = []
        defer { shared.runEnded(tag) }
        read(from: .stdout, untilEmpty: true)
        read(from: .stderr, untilEmpty: true)
        for token in tokens { token.cancel() }
        tokens.removeAll()
        stdoutToken?.cancel()
        stderrToken?.cancel()
        var status = cspawn_exit_status()
        var termination: ProcessTermination?
        var reapFailure: ProcessFailure?
        if pid > 0 {
            // Before reaping, the zombie child pins the pid that names the group, so this cannot hit a stranger.
            kill(-pid, SIGKILL)
            if cspawn_reap_pid(pid, &status) == 0 {
                termination = status.exited != 0 ? .exited(status.status) : .signaled(status.status)
            } else {
                reapFailure = .spawn(errno: errno, message: "cannot reap process \(pid)")
            }
        }
        if pidfd >= 0 { close(pidfd) }
        pidfd = -1
        closeOutputs()
        // The run's cgroup, while it is still there (the runner removes it once the run has ended), says what all its
        // processes used and whether the kernel killed them at the cap.
        let cgroup = shared.cgroup(of: tag)
        let peak = cgroup?.peakMemoryBytes ?? (termination == nil ? nil : ownPeak(status.max_rss_bytes))
        let tail = String(decoding: stderrTail.suffix(spec.stderrTailSize), as: UTF8.self)
        let result = ProcessResult(
            pid: pid, stdout: stdout, stderrTail: tail, termination: termination,
            failure: failure(of: termination, reapFailure: reapFailure, stderrTail: tail, peak: peak,
                             killedAtCgroupCap: (cgroup?.oomKills ?? 0) > 0),
            duration: MonotonicClock.now() - startTime, peakMemoryBytes: peak, limits: shared.limits(of: tag)
        )
        if wasLaunching {
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

    /// The run's failure, from why the runner ended it and how the child ended: the runner's own failure, else one
    /// met reaping the child, else the timeout, the output limit, and the child's own end; nil for a child that
    /// exited 0 on its own.
    private func failure(of termination: ProcessTermination?, reapFailure: ProcessFailure?, stderrTail: String,
                         peak: UInt64?, killedAtCgroupCap: Bool) -> ProcessFailure? {
        if case .failed(let imposed) = stop { return imposed }
        if let reapFailure { return reapFailure }
        switch stop {
        case .failed(let imposed): return imposed
        case .timedOut: return .timeout(seconds: spec.timeout)
        case .outputTooLarge: return .outputTooLarge(limit: spec.stdoutLimit)
        case .cancelled, nil: break
        }
        switch termination {
        case nil, .exited(0):
            return nil
        case .exited(let code):
            return hitMemoryCap(termination, stderrTail: stderrTail, peak: peak, killedAtCgroupCap: killedAtCgroupCap)
                ?? .exit(code)
        case .signaled(let signo):
            return hitMemoryCap(termination, stderrTail: stderrTail, peak: peak, killedAtCgroupCap: killedAtCgroupCap)
                ?? .signal(signo)
        }
    }

    private func hitMemoryCap(
        _ termination: ProcessTermination?, stderrTail: String, peak: UInt64?, killedAtCgroupCap: Bool
    ) -> ProcessFailure? {
        guard let cap = spec.memoryMax else { return nil }
        if killedAtCgroupCap || ProcessResult.reportsOutOfMemory(stderrTail) { return .memory(limit: cap) }
        // A SIGKILL the runner did not send, at a peak near the cap: the kernel's OOM killer.
        if termination == .signaled(SIGKILL), stop == nil, let peak, peak >= cap / 10 * 9 {
            return .memory(limit: cap)
        }
        return nil
    }

    /// The child's own peak RSS, if the rusage figure is surely its own. Until its exec, the child shares the spawner's
    /// memory (the spawn's clone uses CLONE_VM, as posix_spawn's does), and the kernel counts that in its peak; so a
    /// figure not above the spawner's own peak may be the spawner's, and is not reported.
    private func ownPeak(_ childPeak: UInt64) -> UInt64? {
        // The runner's peak only grows, so a figure at or below the last reading needs no new one.
        if childPeak <= shared.spawnerPeakBytes { return nil }
        var usage = rusage()
        guard getrusage(Int32(RUSAGE_SELF.rawValue), &usage) == 0 else { return nil }
        shared.spawnerPeakBytes = UInt64(max(0, usage.ru_maxrss)) * 1024
        return childPeak > shared.spawnerPeakBytes ? childPeak : nil
    }

    /// Signals the child's process group, while the child is unreaped: its zombie pins the pid naming the group.
    func signalGroup(_ signo: Int32) {
        guard pid > 0, phase.isLive else { return }
        kill(-pid, signo)
    }
}
