import CSpawn

#if canImport(Glibc)
import Glibc
#endif

/// State shared by the runs of one runner (they all run on its loop's thread): scratch space for reading pipes, the
/// runner process's last known peak RSS, the spawns queued on the sandbox, the exit poller, and the runs'
/// stream-watch timer. Each run keeps it alive, so a run outliving its runner still reads into valid memory and still
/// learns of its spawn and exit.
///
/// The exit poller is an epoll set watching the live children's exits (each one-shot, tagged with its run), watched on
/// the loop as one descriptor. A child's exit is watched there through the end of its output: the parent's end of its
/// stdout, which hangs up once every writer is gone (for a provider that leaves nothing behind, at its exit). A run
/// that outlasts its stream-watch delay, or whose stdout ended or was closed before its exit, gets a pidfd there
/// instead (`RunningProcess`): that costs a quick run more than the rest of its exit watch. The spawning thread adds
/// the watch, so a spawn needs no wake-up of its own:
/// the loop takes finished spawns over when a child exits, when a run's stream watch is due, or when anything asks
/// about a run still spawning; only a spawn the poller cannot report (a failed one) is counted on the sandbox's
/// eventfd. With no poller (epoll_create1 failed), each child's pidfd is opened at its spawn and watched on the loop,
/// and every spawn counted.
final class RunnerSharedState {
    /// Where children are spawned from when they are sandboxed; nil spawns them from the loop's thread.
    let sandbox: ProviderSandbox?
    /// The loop the runs are driven by.
    let loop: RunnerEventLoop
    /// The bytes; 64 KiB, a pipe's default capacity.
    let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 16)
    /// Whether the parent's pipe ends are read with `cspawn_read_nowait` (this kernel honours RWF_NOWAIT on pipes),
    /// so they need not be made non-blocking: two `fcntl` calls fewer per run. Otherwise they are made
    /// non-blocking when created and read with read(2).
    static let readsPipesWithoutWaiting = cspawn_pipes_read_nowait() != 0
    /// The runner process's peak RSS in bytes when last read (it never decreases).
    var spawnerPeakBytes: UInt64 = 0
    /// The epoll set watching the live children's exits (their stdout ends, or pidfds), or -1.
    let exitPoller = cspawn_exit_poller_create()
    /// How many runs have their spawn queued on the sandbox. Each such run is held by its job (`cspawn_job.owner`, a
    /// retained reference) until the job is taken back: no table to look it up in.
    private var queuedCount = 0
    /// Runs launched and not yet finished, by tag.
    private var live: [UInt64: RunningProcess] = [:]
    private var lastTag: UInt64 = 0
    /// The sandbox's eventfd and the exit poller are watched while runs are live, so an idle runner has no source on
    /// the loop and a sandbox can pass from one runner to the next; a busy one does not add and remove the watches
    /// for every run.
    private var finishedWatch: RunnerEventToken?
    private var exitWatch: RunnerEventToken?
    /// Where `deliverExits` reads the poller's tags.
    private var exitTags = [UInt64](repeating: 0, count: 32)
    /// The live runs' stream-watch moments, behind one timer: a run that ends sooner (nearly all) costs no timer.
    private var streamWatches = StreamWatchQueue()
    private var streamWatchTimer: RunnerEventToken?

    /// Programs built for earlier spawns, reused while they fit.
    private var programs = SpawnCache<SpawnProgram.Key, SpawnProgram>()
    /// RLIMIT_NOFILE for every child (`ProviderRunner.childDescriptorLimit`); nil: they inherit this process's.
    var childDescriptorLimit: rlimit?
    /// Kills and reaps what finished runs leave behind (`ProviderRunner.adoptOrphans()`); nil: nothing is.
    private(set) var orphans: OrphanReaper?
    /// Where runs get cgroups of their own (`ProviderRunner.runCgroups`); nil: they get none.
    var cgroups: RunCgroups?
    /// Told why a run got no cgroup of its own, when `cgroups` could not make one.
    var cgroupFailure: ((RunCgroups.Unavailable) -> Void)?
    /// The live runs' cgroups, by tag.
    private var runCgroups: [UInt64: RunCgroup] = [:]
    /// Removes ended runs' cgroups whose last processes were still going at their end.
    private var cgroupRemoval: RunnerEventToken?

    init(sandbox: ProviderSandbox?, loop: RunnerEventLoop) {
        self.sandbox = sandbox
        self.loop = loop
    }

    deinit {
        bytes.deallocate()
        if exitPoller >= 0 { close(exitPoller) }
    }

    /// The spawn of `program` with `stdio` as descriptors 0–2 in `workingDirectory`, its program from the cache, in a
    /// cgroup of its own with `dataLimit` and `tasksMax` where runs get one, writing `writableDirectory` where the
    /// sandbox has a run root.
    func spawn(of program: SpawnProgram.Key, stdio: (Int32, Int32, Int32), outputEnd: Int32,
               workingDirectory: String?, dataLimit: UInt64?, tasksMax: Int?, tag: UInt64,
               writableDirectory: String? = nil) -> QueuedSpawn {
        var key = program
        key.workingDirectory = workingDirectory
        let built = programs.value(for: key) { SpawnProgram($0) }
        var cgroupProcs: Int32 = -1
        if let cgroups {
            do {
                let cgroup = try cgroups.make(memoryMax: dataLimit, tasksMax: tasksMax)
                runCgroups[tag] = cgroup
                cgroupProcs = cgroup.procs
            } catch {
                cgroupFailure?(error)
            }
        }
        return QueuedSpawn(program: built, dataLimit: dataLimit, descriptorLimit: childDescriptorLimit,
                           childEnds: stdio, outputEnd: outputEnd, exitPoller: exitPoller, tag: tag,
                           cgroupProcs: cgroupProcs, writableDirectory: writableDirectory)
    }

    /// The cgroup of live run `tag`, if it has one.
    func cgroup(of tag: UInt64) -> RunCgroup? {
        runCgroups.isEmpty ? nil : runCgroups[tag]
    }

    /// Which form of containment run `tag` has.
    func limits(of tag: UInt64) -> RunLimits {
        guard let cgroup = cgroup(of: tag) else { return .process }
        return cgroup.memoryCapped ? .cgroup : .cgroupKillOnly
    }

    /// A run is launched: it is live until `runEnded(_:)`. Returns its tag.
    func runLaunched(_ process: RunningProcess) throws -> UInt64 {
        if exitWatch == nil, exitPoller >= 0 {
            exitWatch = try loop.watchReadable(fd: exitPoller) { [self] in deliverExits() }
        }
        if finishedWatch == nil, let sandbox {
            finishedWatch = try loop.watchReadable(fd: sandbox.finishedSpawnsDescriptor) { [self] in takeFinished() }
        }
        lastTag += 1
        live[lastTag] = process
        return lastTag
    }

    /// A run has finished: its child is reaped, and whatever it left is killed (its cgroup, and the orphans handed to
    /// this process).
    func runEnded(_ tag: UInt64) {
        live[tag] = nil
        let cgroup = runCgroups.isEmpty ? nil : runCgroups.removeValue(forKey: tag)
        if let cgroup { cgroups?.end(cgroup) }
        orphans?.sweep()
        if let cgroups, cgroup != nil || !cgroups.awaitingRemoval.isEmpty { removeEndedCgroups(cgroups) }
        dropIdleWatches()
    }

    /// Removes the ended runs' cgroups that are empty now, and looks again a moment later while any is not.
    private func removeEndedCgroups(_ cgroups: RunCgroups) {
        guard cgroups.removeEnded() > 0, cgroupRemoval == nil else { return }
        cgroupRemoval = try? loop.schedule(after: 0.1) { [weak self] in
            self?.cgroupRemoval = nil
            self?.removeEndedCgroups(cgroups)
        }
    }

    /// Makes this process the reaper of its providers' orphans (`OrphanReaper`); once only.
    func adoptOrphans() throws(SystemCallFailure) {
        guard orphans == nil else { return }
        orphans = try OrphanReaper(loop: loop) { [unowned self] in
            // With a sandbox, providers are the spawning thread's children, never the main thread's.
            sandbox == nil ? live.values.compactMap { $0.pid > 0 ? $0.pid : nil } : []
        }
    }

    /// Calls `streamWatchDue()` of run `tag` at `deadline` (monotonic seconds), unless it has ended by then.
    func watchStreams(of tag: UInt64, at deadline: Double) throws {
        guard streamWatches.add(tag, dueAt: deadline) else { return }
        try armStreamWatchTimer(for: deadline)
    }

    private func armStreamWatchTimer(for deadline: Double) throws {
        let timer = try loop.schedule(after: max(0, deadline - MonotonicClock.now())) { [self] in
            streamWatchTimerFired()
        }
        streamWatchTimer?.cancel()
        streamWatchTimer = timer
        streamWatches.armed(for: deadline)
    }

    private func streamWatchTimerFired() {
        streamWatchTimer = nil
        streamWatches.disarmed()
        var due = streamWatches.takeDue(at: MonotonicClock.now())
        if let next = streamWatches.earliestLive({ live[$0] != nil }) {
            do {
                try armStreamWatchTimer(for: next)
            } catch {
                // Watched early rather than never: a run whose watch never comes would never time out.
                due += streamWatches.takeAll()
            }
        }
        for tag in due { live[tag]?.streamWatchDue() }
    }

    /// Queues `spawn` on the sandbox; `process.spawned()` is called on the loop once it is done.
    func queue(_ spawn: QueuedSpawn, on sandbox: ProviderSandbox, for process: RunningProcess) {
        spawn.job.pointee.owner = Unmanaged.passRetained(process).toOpaque()
        queuedCount += 1
        sandbox.submit(spawn)
    }

    /// Asks the sandbox to report `spawn` on its eventfd once it is done, so that its run takes it over then rather
    /// than at its child's exit: for a run whose stream watch came due while its spawn was still queued.
    func requestReport(of spawn: QueuedSpawn) {
        sandbox?.requestReport(of: spawn)
    }

    /// Blocks until every queued spawn is done and delivered: for a runner that stops (the daemon's SIGTERM), so
    /// that no child starts after its run was ended.
    func settleQueuedSpawns() {
        guard let sandbox else { return }
        while queuedCount > 0 {
            // A spawn the exit poller reports is not counted on the eventfd: look again every millisecond.
            var descriptor = pollfd(fd: sandbox.finishedSpawnsDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, 1)
            deliverFinishedSpawns()
        }
    }

    /// Hands every finished spawn to its run.
    func deliverFinishedSpawns() {
        guard queuedCount > 0 else { return }
        takeFinished()
    }

    private func takeFinished() {
        guard let sandbox else { return }
        sandbox.takeFinished { job in
            guard let owner = job.pointee.owner else { return }
            job.pointee.owner = nil
            queuedCount -= 1
            // The run may free the job (its `QueuedSpawn`) here.
            Unmanaged<RunningProcess>.fromOpaque(owner).takeRetainedValue().spawned()
        }
    }

    /// Children exited. The tags are read first, then the finished spawns taken: the sandbox adds a pidfd to the
    /// poller and its job to the finished list under one lock, and taking the list takes that lock, so every run
    /// whose exit was read has its spawn taken over before it hears of the exit.
    private func deliverExits() {
        while true {
            let count = Int(cspawn_exit_poller_take(exitPoller, &exitTags, Int32(exitTags.count)))
            guard count > 0 else { return }
            deliverFinishedSpawns()
            for tag in exitTags.prefix(count) {
                let outputEnded = tag & CSPAWN_OUTPUT_END != 0
                live[tag & ~CSPAWN_OUTPUT_END]?.childExitReported(outputEnded: outputEnded)
            }
            if count < exitTags.count { return }
        }
    }

    private func dropIdleWatches() {
        guard live.isEmpty, queuedCount == 0 else { return }
        streamWatchTimer?.cancel()
        streamWatchTimer = nil
        streamWatches.removeAll()
        finishedWatch?.cancel()
        finishedWatch = nil
        exitWatch?.cancel()
        exitWatch = nil
    }
}
