import CSpawn

#if canImport(Glibc)
import Glibc
#endif

/// Everything one posix_spawn call reads: the `cspawn_job`, and the program, file actions and attributes it points
/// at (shared with other spawns of the same program and descriptors, see `RunnerSharedState`). A spawn queued on a
/// `ProviderSandbox` runs on another thread after the caller has moved on, so nothing it reads may live on the
/// caller's stack; the job is freed, and its parts released, once the spawn is done.
final class QueuedSpawn {
    /// What the spawning thread reads, and where it puts the pid and result.
    let job = UnsafeMutablePointer<cspawn_job>.allocate(capacity: 1)
    // Shared, read-only parts the job points into, kept alive until the spawn is done.
    private let program: SpawnProgram
    private let fileActions: SpawnFileActions
    private let attributes: SpawnAttributes

    /// Prepares the spawn of `program` with `attributes` and `fileActions`, and if given `dataLimit` as its
    /// RLIMIT_DATA and `descriptorLimit` as its RLIMIT_NOFILE. The job owns `childEnds` from now on and closes them
    /// once the child has its copies, even if the spawn fails or never runs. With an `exitPoller` (not -1), the
    /// child's exit is watched there with `tag`: through `outputEnd`, the parent's end of its stdout, or else through
    /// a pidfd.
    init(program: SpawnProgram, fileActions: SpawnFileActions, attributes: SpawnAttributes, dataLimit: UInt64?,
         descriptorLimit: rlimit?, childEnds: (Int32, Int32, Int32), outputEnd: Int32, exitPoller: Int32,
         tag: UInt64) {
        self.program = program
        self.fileActions = fileActions
        self.attributes = attributes
        job.initialize(to: cspawn_job(path: program.path, actions: fileActions.actions,
                                      attributes: attributes.attributes, argv: program.arguments,
                                      envp: program.variables, child_fds: childEnds, output_fd: outputEnd,
                                      data_limit: dataLimit ?? 0,
                                      descriptor_limit: descriptorLimit ?? rlimit(), pid: 0, result: 0,
                                      pidfd: -1, pidfd_errno: 0, limit_errno: 0, descriptor_limit_errno: 0,
                                      exit_poller: exitPoller, tag: tag, poller_errno: 0, report_when_done: 0,
                                      done: 0, owner: nil, next: nil))
    }

    deinit {
        // A job that never ran still owns the child's ends (a run spawns its children from `cspawn_job_run`, which
        // closes them).
        withUnsafeBytes(of: job.pointee.child_fds) { ends in
            for end in ends.bindMemory(to: Int32.self) where end >= 0 { close(end) }
        }
        job.deallocate()
    }

    /// Spawns on the calling thread, blocking until the child has exec'd, then closes the child's pipe ends, sets its
    /// limits and watches its exit in the exit poller, as the sandbox's thread does.
    func spawnHere() {
        cspawn_job_run(job)
        _ = cspawn_job_watch_exit(job)
    }

    /// The child's pid (after the spawn).
    var pid: pid_t { job.pointee.pid }
    /// posix_spawn's result: 0, or an error number (after the spawn).
    var result: Int32 { job.pointee.result }
    /// The child's pidfd, or -1 with `pidfdErrno` (0 when the exit is watched through the output instead) after a
    /// successful spawn. Whoever takes the spawn owns it.
    var pidfd: Int32 { job.pointee.pidfd }
    /// Why the pidfd could not be opened.
    var pidfdErrno: Int32 { job.pointee.pidfd_errno }
    /// 0, or why the data limit could not be set.
    var limitErrno: Int32 { job.pointee.limit_errno }
    /// 0, or why the descriptor limit could not be set.
    var descriptorLimitErrno: Int32 { job.pointee.descriptor_limit_errno }
    /// 0, or why the exit watch could not be added to the exit poller.
    var pollerErrno: Int32 { job.pointee.poller_errno }
}

/// Setting up a spawn's attributes or file actions failed with `errno`.
struct SpawnSetupError: Error {
    var errno: Int32
}
