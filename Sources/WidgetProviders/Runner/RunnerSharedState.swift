import CSpawn

#if canImport(Glibc)
import Glibc
#endif

/// State shared by the runs of one runner (they all run on its loop's thread): scratch space for reading pipes, the
/// runner process's last known peak RSS, and the spawns queued on the sandbox. Each run keeps it alive, so a run
/// outliving its runner still reads into valid memory and still learns of its spawn.
final class RunnerSharedState {
    /// Where children are spawned from when they are sandboxed; nil spawns them from the loop's thread.
    let sandbox: ProviderSandbox?
    /// The loop the runs are driven by.
    let loop: RunnerEventLoop
    /// The bytes; 64 KiB, a pipe's default capacity.
    let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 16)
    /// The runner process's peak RSS in bytes when last read (it never decreases).
    var spawnerPeakBytes: UInt64 = 0
    /// The runs whose spawn is queued on the sandbox, by job.
    private var queued: [UnsafeMutablePointer<cspawn_job>: RunningProcess] = [:]
    /// The sandbox's eventfd is watched while runs are live (queued, spawning or running), so an idle runner has no
    /// source on the loop and a sandbox can pass from one runner to the next; a busy one does not add and remove
    /// the watch (two epoll_ctl calls) for every spawn.
    private var finishedWatch: RunnerEventToken?
    /// Runs launched and not yet finished.
    private var liveRuns = 0

    init(sandbox: ProviderSandbox?, loop: RunnerEventLoop) {
        self.sandbox = sandbox
        self.loop = loop
    }

    deinit {
        bytes.deallocate()
    }

    /// Queues `spawn` on the sandbox; `process.spawned()` is called on the loop once it is done.
    func queue(_ spawn: QueuedSpawn, on sandbox: ProviderSandbox, for process: RunningProcess) throws {
        if finishedWatch == nil {
            finishedWatch = try loop.watchReadable(fd: sandbox.finishedSpawnsDescriptor) { [self] in
                deliverFinishedSpawns()
            }
        }
        queued[spawn.job] = process
        sandbox.submit(spawn)
    }

    /// Blocks until every queued spawn is done and delivered: for a runner that stops (the daemon's SIGTERM), so
    /// that no child starts after its run was ended.
    func settleQueuedSpawns() {
        guard let sandbox else { return }
        while !queued.isEmpty {
            var descriptor = pollfd(fd: sandbox.finishedSpawnsDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, 100)
            deliverFinishedSpawns()
        }
    }

    private func deliverFinishedSpawns() {
        guard let sandbox else { return }
        for job in sandbox.takeFinished() {
            queued.removeValue(forKey: job)?.spawned()
        }
        dropIdleWatch()
    }

    /// A run is launched: it counts as live until `runEnded()`.
    func runLaunched() {
        liveRuns += 1
    }

    /// A run has finished (called once per `runLaunched()`).
    func runEnded() {
        liveRuns -= 1
        dropIdleWatch()
    }

    private func dropIdleWatch() {
        guard queued.isEmpty, liveRuns == 0, let watch = finishedWatch else { return }
        watch.cancel()
        finishedWatch = nil
    }
}
