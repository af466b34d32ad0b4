import Foundation
import GRDB
import Glibc

/// The daemon's persistent state in `<state-dir>/state.sqlite`: widgets, scheduler state, last good timelines, a
/// bounded history, shared group data and meta values.
///
/// The store is synchronous and meant for one thread, the daemon's event loop. It writes through `apply(_:)`, one
/// transaction per write, as often as the daemon's `WritePacer` allows.
///
/// Durability. The database runs in WAL mode. A commit appends the transaction's pages and a commit frame to
/// `state.sqlite-wal` with write(2) before it returns; those bytes then live in the kernel's page cache, which a
/// `kill -9` of the process cannot take away. On the next open SQLite replays every transaction whose commit frame is
/// in the WAL and ignores a torn tail, so a killed daemon loses nothing it committed and never sees half a batch.
/// `synchronous=NORMAL` only skips the fsync at commit (the WAL is fsynced at each checkpoint), so only an OS crash or
/// power loss can drop the latest commits, and even then the database stays consistent. Use
/// `StateStoreOptions.Durability.powerLoss` to fsync every commit instead.
///
/// A budget spend is safe from `kill -9` once `apply(_:)` has returned for the batch that holds it, or once
/// `recordRunStarts(_:)` has returned for its schedule: the daemon records the schedules of the runs a turn starts
/// before it spawns them (one write(2) to the run-start journal, `RunStartJournal`), and commits the turn's batch
/// after, so a kill between the spawn and the commit refunds nothing and no commit delays the spawn.
public final class StateStore {
    /// The path of the database file.
    public let path: String
    /// The options the store was opened with.
    public let options: StateStoreOptions
    let databaseQueue: DatabaseQueue
    let checkpointer: StateCheckpointer?
    let runStartJournal: RunStartJournal
    /// What opening the store recovered from the run-start journal, for the daemon's log: run starts a killed
    /// daemon journaled but never committed, and a damaged tail that was dropped, naming the file. Nil if nothing.
    public internal(set) var runStartRecovery: String?
    /// What the run-start journal showed the database to have lost, when `StateStoreOptions.acceptStateLoss` let it
    /// open all the same. Nil if nothing.
    public private(set) var acceptedStateLoss: StateLoss?
    var commitsSinceCheckpointRequest = 0

    /// The file name of the database inside the state directory.
    public static let fileName = "state.sqlite"
    /// What the run-start journal adds to the database's path.
    public static let runStartJournalSuffix = "-runstarts"

    /// Opens (creating if needed) `state.sqlite` in `directory`, and brings its schema up to date.
    ///
    /// - Throws: `StateStoreError.cannotOpen` naming the file, `StateStoreError.newerSchema` if a newer version
    ///   wrote the database, or `StateStoreError.stateLost` if the run-start journal shows it lost commits.
    public convenience init(directory: URL, options: StateStoreOptions = StateStoreOptions()) throws {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw StateStoreError.cannotOpen(path: directory.path, reason: "\(error)")
        }
        try self.init(path: directory.appendingPathComponent(Self.fileName).path, options: options)
    }

    /// Opens (creating if needed) the database at `path`, and brings its schema up to date.
    public init(path: String, options: StateStoreOptions = StateStoreOptions()) throws {
        self.path = path
        self.options = options
        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.busyMode = .timeout(options.busyTimeout)
        configuration.foreignKeysEnabled = true
        configuration.label = "widget-scheduler.state"
        let synchronous = options.durability == .powerLoss ? "FULL" : "NORMAL"
        // Created 0600 whatever the umask: SQLite gives the WAL and shared-memory files the database's mode.
        if access(path, F_OK) != 0 {
            Glibc.close(Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600))
        }
        do {
            databaseQueue = try DatabaseQueue(path: path, configuration: configuration)
            try databaseQueue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA synchronous = \(synchronous)")
                let autoCheckpointPages =
                    options.backgroundCheckpointEveryCommits == nil ? max(0, options.walAutoCheckpointPages) : 0
                try db.execute(sql: "PRAGMA wal_autocheckpoint = \(autoCheckpointPages)")
                // Bounds the WAL file left on disk after a checkpoint that follows a large transaction.
                try db.execute(sql: "PRAGMA journal_size_limit = \(16 * 1024 * 1024)")
            }
        } catch {
            throw StateStoreError.cannotOpen(path: path, reason: "\(error)")
        }
        try Self.migrate(databaseQueue, path: path)
        do {
            let applied = try databaseQueue.read { db in
                try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?",
                                    arguments: [RunStartJournal.appliedKey])
            }
            var sequence: UInt64 = 0
            if let applied {
                // Below 2^63, so that counting on from it cannot overflow: a larger one was not written by the store.
                guard let number = UInt64(applied), number <= UInt64(Int64.max) else {
                    throw StateStoreError.corruptRow(table: "meta", key: RunStartJournal.appliedKey,
                                                     reason: "value \"\(applied)\" is not a sequence number below 2^63")
                }
                sequence = number
            }
            runStartJournal = try RunStartJournal(path: path + Self.runStartJournalSuffix, applied: sequence,
                                                  syncEachAppend: options.durability == .powerLoss)
        } catch let error as StateStoreError {
            throw error
        } catch {
            throw StateStoreError.cannotOpen(path: path, reason: "\(error)")
        }
        do {
            checkpointer = try options.backgroundCheckpointEveryCommits.map { _ in
                try StateCheckpointer(path: path, busyTimeout: options.busyTimeout,
                                      restartAtFrames: options.walRestartPages)
            }
        } catch {
            throw StateStoreError.cannotOpen(path: path, reason: "checkpoint connection: \(error)")
        }
        // Before the journal's records are folded in, which would mark them covered and hide the evidence.
        let queue = databaseQueue
        let loss = StateLoss.inRunStartJournal(
            databasePath: path, journalPath: runStartJournal.path, applied: runStartJournal.appliedSequence,
            first: runStartJournal.firstSequence, pending: runStartJournal.pending
        ) { id in
            (try? queue.read { db in try Bool.fetchOne(db, sql: "SELECT 1 FROM widget WHERE id = ?", arguments: [id]) })
                != nil
        }
        if let loss {
            guard options.acceptStateLoss else { throw StateStoreError.stateLost(loss) }
            acceptedStateLoss = loss
        }
        do {
            try recoverRunStarts()
        } catch {
            throw StateStoreError.cannotOpen(path: path, reason: "recovering the run-start journal: \(error)")
        }
    }

    deinit {
        checkpointer?.stop()
    }

    private static func migrate(_ databaseQueue: DatabaseQueue, path: String) throws {
        let migrator = StateSchema.migrator
        let unknown: [String]
        do {
            unknown = try databaseQueue.read { db in
                try migrator.appliedIdentifiers(db).subtracting(migrator.migrations).sorted()
            }
        } catch {
            throw StateStoreError.cannotOpen(path: path, reason: "\(error)")
        }
        guard unknown.isEmpty else {
            throw StateStoreError.newerSchema(path: path, unknownMigrations: unknown)
        }
        do {
            try migrator.migrate(databaseQueue)
        } catch {
            throw StateStoreError.cannotOpen(path: path, reason: "migration failed: \(error)")
        }
    }

    /// Stops the background checkpointer, if any, and closes the database. Later calls throw.
    public func close() throws {
        checkpointer?.stop()
        try databaseQueue.close()
    }

    /// Runs `PRAGMA integrity_check` and returns its report: `ok` when the database is sound.
    public func integrityCheck() throws -> String {
        try databaseQueue.read { db in
            try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "\n")
        }
    }

    /// Copies the WAL's committed pages into the database file and restarts the WAL, waiting for no reader
    /// (`PRAGMA wal_checkpoint(PASSIVE)`). Returns the WAL's size in pages and how many were checkpointed.
    @discardableResult
    public func checkpoint() throws -> (walPages: Int, checkpointedPages: Int) {
        try databaseQueue.writeWithoutTransaction { db in
            let row = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(PASSIVE)")
            return (row?[1] ?? 0, row?[2] ?? 0)
        }
    }

    /// Folds the whole WAL into the database file and empties it (`wal_checkpoint(TRUNCATE)`), for a clean stop:
    /// the state is then in `state.sqlite` alone, and a WAL damaged or lost while the daemon is stopped costs
    /// nothing. The background checkpointer is stopped first, as its connection would keep the WAL busy. Returns the
    /// WAL's frames that were folded in.
    @discardableResult
    public func checkpointTruncatingWAL() throws -> Int {
        checkpointer?.stop()
        return try databaseQueue.writeWithoutTransaction { db in try db.checkpoint(.truncate).walFrameCount }
    }

    /// Background checkpoints completed so far and the last one's failure, if any; nil without a background
    /// checkpointer.
    public var backgroundCheckpointStatus: (completed: Int, lastFailure: String?)? {
        checkpointer?.status
    }

    /// The migrations applied to the database, in order.
    public func appliedMigrations() throws -> [String] {
        try databaseQueue.read { db in try StateSchema.migrator.appliedMigrations(db) }
    }
}
