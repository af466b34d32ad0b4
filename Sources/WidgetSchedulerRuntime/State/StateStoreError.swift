/// Why the state store could not open, migrate or read its database.
public enum StateStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The database file could not be opened or set up.
    case cannotOpen(path: String, reason: String)
    /// The database was written by a newer version, with migrations this version does not know.
    case newerSchema(path: String, unknownMigrations: [String])
    /// A file beside the database (the run-start journal) could not be written.
    case cannotWrite(path: String, reason: String)
    /// A stored row holds a value this version cannot read.
    case corruptRow(table: String, key: String, reason: String)
    /// The run-start journal shows that the database lost commits (`StateStore.Options.acceptStateLoss` not given).
    case stateLost(StateLoss)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            return "cannot open state database \(path): \(reason)"
        case .newerSchema(let path, let unknownMigrations):
            return "state database \(path) was written by a newer widget-scheduler (unknown migrations: "
                + unknownMigrations.joined(separator: ", ") + ")"
        case .cannotWrite(let path, let reason):
            return "cannot write \(path): \(reason)"
        case .corruptRow(let table, let key, let reason):
            return "state database row \(table)[\(key)] is unreadable: \(reason)"
        case .stateLost(let loss):
            return loss.description
        }
    }
}
