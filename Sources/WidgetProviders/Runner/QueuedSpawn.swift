import CSpawn

#if canImport(Glibc)
import Glibc
#endif

/// Everything one spawn reads: the `cspawn_job`, and the program it points at (shared with other spawns of the same
/// program, see `RunnerSharedState`). A spawn queued on a `ProviderSandbox` runs on another thread after the caller
/// has moved on, so nothing it reads may live on the caller's stack; the job is freed, and the program released, once
/// the spawn is done.
final class QueuedSpawn {
    /// What the spawning thread reads, and where it puts the pid and result.
    let job = UnsafeMutablePointer<cspawn_job>.allocate(capacity: 1)
    // Shared, read-only, kept alive until the spawn is done.
    private let program: SpawnProgram
    /// The job's `writable_directory`, owned here.
    private let writableDirectory: UnsafeMutablePointer<CChar>?

    /// Prepares the spawn of `program` (in its working directory), and if given `dataLimit` as its RLIMIT_DATA and
    /// `descriptorLimit` as its RLIMIT_NOFILE. The job owns `childEnds` from now on and closes them once the child has
    /// its copies, even if the spawn fails or never runs. With an `exitPoller` (not -1), the child's exit is watched
    /// there with `tag`: through `outputEnd`, the parent's end of its stdout, or else through a pidfd. The child joins
    /// the cgroup whose `cgroup.procs` is `cgroupProcs` (-1 for none) and becomes a subreaper if `subreaper` says so,
    /// before it execs. Spawned by a sandbox with a run root, it may write in `writableDirectory` alone beneath it.
    init(program: SpawnProgram, dataLimit: UInt64?, descriptorLimit: rlimit?, childEnds: (Int32, Int32, Int32),
         outputEnd: Int32, exitPoller: Int32, tag: UInt64, cgroupProcs: Int32 = -1, subreaper: Bool = true,
         writableDirectory: String? = nil) {
        self.program = program
        self.writableDirectory = writableDirectory.flatMap { strdup($0) }
        job.initialize(to: cspawn_job(path: program.path, argv: program.arguments, envp: program.variables,
                                      working_directory: program.workingDirectory, child_fds: childEnds,
                                      output_fd: outputEnd, data_limit: dataLimit ?? 0,
                                      descriptor_limit: descriptorLimit ?? rlimit(), cgroup_procs_fd: cgroupProcs,
                                      subreaper: subreaper ? 1 : 0, landlock_scope_fd: -1,
                                      writable_directory: self.writableDirectory.map { UnsafePointer($0) }, pid: 0,
                                      result: 0,
                                      failed_step: nil, pidfd: -1, pidfd_errno: 0, exit_poller: exitPoller, tag: tag,
                                      poller_errno: 0, report_when_done: 0, done: 0, owner: nil, next: nil))
    }

    deinit {
        // A job that never ran still owns the child's ends (a run spawns its children from `cspawn_job_run`, which
        // closes them).
        withUnsafeBytes(of: job.pointee.child_fds) { ends in
            for end in ends.bindMemory(to: Int32.self) where end >= 0 { close(end) }
        }
        job.deallocate()
        free(writableDirectory)
    }

    /// Spawns on the calling thread, blocking until the child has exec'd, then closes the child's pipe ends and
    /// watches its exit in the exit poller, as the sandbox's thread does.
    func spawnHere() {
        cspawn_job_run(job)
        _ = cspawn_job_watch_exit(job)
    }

    /// The child's pid (after the spawn).
    var pid: pid_t { job.pointee.pid }
    /// The spawn's result: 0, or an error number (after the spawn).
    var result: Int32 { job.pointee.result }
    /// What failed, when `result` is not 0: "cannot start PROGRAM" when exec did (a missing or non-executable file),
    /// with the step added when one before it did ("its working directory", "joining its run's cgroup", …).
    func failureMessage(program: String) -> String {
        let step = job.pointee.failed_step.map { String(cString: $0) } ?? "clone"
        return step == "execve" ? "cannot start \(program)" : "cannot start \(program) (\(step))"
    }
    /// The child's pidfd, or -1 with `pidfdErrno` (0 when the exit is watched through the output instead) after a
    /// successful spawn. Whoever takes the spawn owns it.
    var pidfd: Int32 { job.pointee.pidfd }
    /// Why the pidfd could not be opened.
    var pidfdErrno: Int32 { job.pointee.pidfd_errno }
    /// 0, or why the exit watch could not be added to the exit poller.
    var pollerErrno: Int32 { job.pointee.poller_errno }
}

