import CSpawn

#if canImport(Glibc)
import Glibc
#endif

/// The child's output and its exit watch: reading stdout and stderr within their limits, and knowing when the child
/// is gone.
extension RunningProcess {
    enum Stream { case stdout, stderr }

    /// Watches the streams still open and not yet watched; the failure if the loop refuses.
    func watchStreams() -> ProcessFailure? {
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

    func read(from stream: Stream, untilEmpty: Bool) {
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
                if case .draining = phase, stdoutFD < 0, stderrFD < 0 { finish() }
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
                record(.outputTooLarge)
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

    /// Stops watching a stream and closes it; the watch goes first, so that it never sees a reused descriptor.
    func closeStream(_ stream: Stream) {
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

    func closeOutputs() {
        closeStream(.stdout)
        closeStream(.stderr)
    }

    /// The exit poller reported the child's exit, or with `outputEnded` the end of its output (each once: the watches
    /// are one-shot). The runner has taken the spawn over before it reports (`RunnerSharedState.deliverExits`).
    func childExitReported(outputEnded: Bool) {
        guard phase.childRuns else { return }
        // The output's last writer is usually the child, going as it exits; it may also have closed its stdout and
        // gone on, or be a moment from its exit (its files are closed before it becomes a zombie).
        if outputEnded && cspawn_has_exited(pid) == 0 {
            watchExitApart()
            return
        }
        childExited()
    }

    /// Watches the child's exit through a pidfd, when the end of its output no longer can: the output ended or was
    /// closed first, or the run lasts (a grandchild may hold the output past the child's exit). Returns false if the
    /// run was finished for want of a watch.
    @discardableResult
    func watchExitApart() -> Bool {
        guard pidfd < 0, pid > 0, phase.childRuns else { return true }
        let opened = cspawn_pidfd_open(pid)
        let failure: ProcessFailure?
        if opened < 0 {
            failure = .spawn(errno: errno, message: "pidfd_open failed")
        } else {
            pidfd = opened
            failure = watchPidfd()
        }
        guard let failure else { return true }
        abandon(failure)
        return false
    }
}
