import Foundation
import WidgetSchedulerCore

/// Evidence, found at start, that the state database lacks what it once held: a `state.sqlite` restored from an old
/// copy, emptied, or cut from its WAL. The daemon then refuses to start rather than carry on with fewer widgets and
/// only a warning, unless `--accept-state-loss` says to go on without them.
///
/// Three records outlive the database and can tell:
/// - the run-start journal numbers its records, and the database keeps the newest number a commit covered: a journal
///   that begins past that number follows commits the database no longer has;
/// - a record of the journal no commit covered is for a widget the database should hold. One for a widget's first
///   run proves nothing (the widget's add may not have been committed when the daemon died, and its caller was then
///   never told of it), but one for any later run does;
/// - a clean stop writes the number of widgets the database held into the clean-stop marker.
public struct StateLoss: Error, Sendable, Equatable, CustomStringConvertible {
    /// The database that lost state.
    public var path: String
    /// What shows it, naming the file that tells.
    public var evidence: String

    public init(path: String, evidence: String) {
        self.path = path
        self.evidence = evidence
    }

    public var description: String {
        "\(path) has lost state: \(evidence). Not starting without it: put back the file from a backup, or start "
            + "with --accept-state-loss to go on without what it lost"
    }

    /// The loss the run-start journal at `journalPath` shows, if any. `applied` is the newest journal number the
    /// database says a commit covered, `first` the number of the journal's first readable record, `pending` its
    /// records newer than `applied`, oldest first, and `databaseHolds` whether the database has a widget.
    static func inRunStartJournal(
        databasePath: String, journalPath: String, applied: UInt64, first: UInt64?,
        pending: [RunStartJournal.Record], databaseHolds: (String) -> Bool
    ) -> StateLoss? {
        if let first, first > applied &+ 1 {
            return StateLoss(path: databasePath, evidence: "\(journalPath) begins at run start \(first), but the "
                + "database's commits cover run starts only up to \(applied): the commits between are missing")
        }
        var missing: Set<String> = []
        for record in pending where !databaseHolds(record.schedule.widgetID) {
            let state = try? PersistedWidgetState(decoding: record.schedule.state)
            if let reason = state?.schedule.inFlight?.reason, reason != .initial {
                missing.insert(record.schedule.widgetID)
            }
        }
        guard !missing.isEmpty else { return nil }
        let names = missing.sorted()
        let listed = names.prefix(5).joined(separator: ", ") + (names.count > 5 ? " and \(names.count - 5) more" : "")
        return StateLoss(path: databasePath, evidence: "\(journalPath) holds later runs of "
            + "\(names.count == 1 ? "widget" : "widgets") \(listed), which the database lacks")
    }

    /// The loss the clean-stop marker at `markerPath` shows: it says the database held `widgetsAtStop` widgets, and
    /// it holds `widgetsNow`.
    public static func sinceCleanStop(databasePath: String, markerPath: String, widgetsAtStop: Int,
                                      widgetsNow: Int) -> StateLoss? {
        guard widgetsNow < widgetsAtStop else { return nil }
        return StateLoss(path: databasePath, evidence: "it holds \(Counted.phrase(widgetsNow, "widget")), but "
            + "\(markerPath) says it held \(widgetsAtStop) when the daemon last stopped")
    }
}
