import Foundation

/// Tunables of the state store; the defaults are what the daemon uses.
public struct StateStoreOptions: Sendable {
    /// How hard a commit waits for the disk.
    public enum Durability: Sendable {
        /// `synchronous=NORMAL`: a commit is safe from a crash or `kill -9` of the process, but the last commits may
        /// be lost (never corrupted) if the machine loses power before the next checkpoint.
        case processCrash
        /// `synchronous=FULL`: every commit is fsynced, so it survives power loss too, at the cost of one fsync per
        /// commit.
        case powerLoss
    }

    /// At most this many history lines are kept per widget.
    public var historyLimitPerWidget: Int
    /// History lines older than this many seconds (against the newest line appended) are pruned.
    public var historyMaxAge: TimeInterval
    /// At most this many expired history lines are pruned per batch, so pruning never stalls a loop turn.
    public var historyAgePruneChunk: Int
    /// How long a write waits for another connection's lock before failing, in seconds.
    public var busyTimeout: TimeInterval
    /// Commit durability.
    public var durability: Durability
    /// SQLite checkpoints the WAL into the database file after a commit that leaves at least this many pages in it;
    /// 0 turns automatic checkpoints off, and the owner then calls `StateStore.checkpoint()` when it is idle.
    /// Ignored when `backgroundCheckpointEveryCommits` is set.
    public var walAutoCheckpointPages: Int
    /// When set, checkpoints run on a dedicated thread with its own connection, requested after every this many
    /// commits, instead of inside the commit that crosses `walAutoCheckpointPages` on the caller's thread. The
    /// thread sleeps until requested, so it adds no wake-up while nothing is written.
    public var backgroundCheckpointEveryCommits: Int?
    /// With background checkpoints: once the WAL holds this many pages, a checkpoint also restarts it (briefly
    /// holding writers off), so back-to-back commits cannot grow it without end.
    public var walRestartPages: Int
    /// Opens a database that the run-start journal shows to have lost commits (`StateLoss`), instead of throwing
    /// `StateStoreError.stateLost`; `StateStore.acceptedStateLoss` then says what was lost.
    public var acceptStateLoss: Bool

    public init(
        historyLimitPerWidget: Int = 200,
        historyMaxAge: TimeInterval = 7 * 24 * 3600,
        historyAgePruneChunk: Int = 500,
        busyTimeout: TimeInterval = 5,
        durability: Durability = .processCrash,
        walAutoCheckpointPages: Int = 1000,
        backgroundCheckpointEveryCommits: Int? = nil,
        walRestartPages: Int = 4096,
        acceptStateLoss: Bool = false
    ) {
        self.historyLimitPerWidget = historyLimitPerWidget
        self.historyMaxAge = historyMaxAge
        self.historyAgePruneChunk = historyAgePruneChunk
        self.busyTimeout = busyTimeout
        self.durability = durability
        self.walAutoCheckpointPages = walAutoCheckpointPages
        self.backgroundCheckpointEveryCommits = backgroundCheckpointEveryCommits.map { max(1, $0) }
        self.walRestartPages = max(1, walRestartPages)
        self.acceptStateLoss = acceptStateLoss
    }
}
