import CSpawn
import Foundation
import GRDB

/// Runs WAL checkpoints on a thread of its own, through a connection of its own, so that the event loop never waits
/// for a checkpoint's page copies and fsyncs.
///
/// The thread sleeps on a condition variable and wakes only when `request()` is called after commits: an idle daemon
/// gets no wake-up from it. A PASSIVE checkpoint takes no lock a writer needs, so `StateStore.apply(_:)` never waits
/// for it either; the WAL restarts from its beginning at the first commit after a complete checkpoint.
final class StateCheckpointer: @unchecked Sendable {
    // Every stored property below is guarded by `condition`.
    private let condition = NSCondition()
    private var requested = false
    private var stopping = false
    private var finished = false
    private var completedCount = 0
    private var lastFailure: String?

    /// WAL frames (pages) past which a checkpoint also restarts the WAL.
    private let restartAtFrames: Int

    init(path: String, busyTimeout: TimeInterval, restartAtFrames: Int) throws {
        self.restartAtFrames = restartAtFrames
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        configuration.label = "widget-scheduler.state.checkpoint"
        let connection = try DatabaseQueue(path: path, configuration: configuration)
        let thread = Thread { [self] in run(connection) }
        thread.start()
    }

    /// Asks for a checkpoint soon; requests made while one runs coalesce into one more.
    func request() {
        condition.lock()
        requested = true
        condition.signal()
        condition.unlock()
    }

    /// Checkpoints completed so far, and the last failure's description, if any.
    var status: (completed: Int, lastFailure: String?) {
        condition.lock()
        defer { condition.unlock() }
        return (completedCount, lastFailure)
    }

    /// Stops the thread after the checkpoint it may be running, and waits for it to finish.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while !finished {
            condition.wait()
        }
        condition.unlock()
    }

    /// The thread's name in `top -H`, perf and /proc/PID/task/*/comm: at most 15 bytes, all the kernel keeps.
    static let threadName = "wal-checkpoint"

    private func run(_ connection: DatabaseQueue) {
        // Named by the thread itself through pthread: Foundation passes a name set before `start()` to no one, and
        // `Thread.current.name` set here did not always reach the kernel either (under load,
        // `StateStoreTests.theCheckpointThreadIsNamedForTopAndPerf` once found the name the thread inherited).
        _ = cspawn_name_current_thread(Self.threadName)
        while true {
            condition.lock()
            while !requested && !stopping {
                condition.wait()
            }
            if stopping {
                finished = true
                condition.broadcast()
                condition.unlock()
                try? connection.close()
                return
            }
            requested = false
            condition.unlock()

            var failure: String?
            do {
                try connection.writeWithoutTransaction { db in
                    let row = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(PASSIVE)")
                    // Under back-to-back commits a passive checkpoint never catches the last frame, so the WAL
                    // never starts over and grows without end under a steady run load. Once it is large, copy
                    // the few frames the passive pass left with writers held off, so the next commit restarts it.
                    if let frames: Int = row?[1], frames >= restartAtFrames {
                        try db.execute(sql: "PRAGMA wal_checkpoint(RESTART)")
                    }
                }
            } catch {
                failure = "\(error)"
            }
            condition.lock()
            completedCount += 1
            if let failure {
                lastFailure = failure
            }
            condition.unlock()
        }
    }
}
