/// Which of a widget's successful-run lines go to the journal at once, and which are folded into one line written
/// later.
///
/// A widget's first successful run after a state write gets its line at once. Its further ones before the next write
/// are folded while they are like the widget's previous line (`likeness`: the daemon gives the run's stderr output,
/// so a run that says something new is written at once): they are counted, and the last of them is kept. `takeAll()`
/// hands the kept lines over at the write, each with the number of earlier runs it stands for, and `take(_:)` or an
/// unlike run hands one over before another line of the widget, so that the journal keeps the runs' order. The daemon
/// writes its state at the next idle moment, and at least 100 ms apart while changes keep coming (`WritePacer`), so a
/// widget whose runs are alike gets at most about twenty run lines a second, and a run's line is at most one write
/// late.
///
/// Runs minutes apart, as the floor keeps every kind outside developer mode, are never folded; a provider looping in
/// developer mode is. A thousand lines a second would carry the unit past journald's rate limit (10 000 entries per
/// 30 s by default), which then drops the unit's other messages too, and add to the daemon's work for every run.
/// The daemon writes a run's history line with its journal line, so a folded line's history line stands for the
/// same runs (`HistoryRecord.runs`): a looping provider does not insert, then trim, a thousand rows a second. Nothing
/// else is folded: every run keeps its `runFinished` event.
struct RunLineFolder<Line> {
    /// A kept line, and how many of the widget's runs before it had no line of their own.
    struct Folded {
        var line: Line
        var earlierRuns: Int
    }

    /// What becomes of a successful run's line.
    enum Verdict {
        /// Kept, in place of the widget's previous kept line, which then counts as an earlier run.
        case folded
        /// Written now, after the widget's kept line if there is one.
        case writeNow(after: Folded?)
    }

    private struct Fold {
        /// What the widget's previous line said besides its fields: a line folds only into a like one.
        var likeness: String
        /// The last folded run's line, until it is taken.
        var kept: Line?
        /// The runs folded since the widget's last written line, the kept one included.
        var runs = 0
    }

    /// The widgets with a line since the last write; a widget not here has its next line written at once.
    private var folds: [String: Fold] = [:]

    /// The verdict for `line`, a successful run's, which says `likeness` besides its fields.
    mutating func fold(_ id: String, _ line: Line, likeness: String) -> Verdict {
        // One lookup, through the index: this is on every run's path.
        guard let index = folds.index(forKey: id) else {
            folds[id] = Fold(likeness: likeness)
            return .writeNow(after: nil)
        }
        guard folds.values[index].likeness == likeness else {
            let taken = Self.folded(folds.values[index])
            folds.values[index] = Fold(likeness: likeness)
            return .writeNow(after: taken)
        }
        folds.values[index].kept = line
        folds.values[index].runs += 1
        return .folded
    }

    /// The widget's kept line, to be written before another line of the widget; the widget's later like runs are
    /// folded until the next write, as before.
    mutating func take(_ id: String) -> Folded? {
        guard let index = folds.index(forKey: id), let taken = Self.folded(folds.values[index]) else { return nil }
        folds.values[index] = Fold(likeness: folds.values[index].likeness)
        return taken
    }

    /// The widget's kept line, left kept: for a query that counts the runs not yet written.
    func kept(_ id: String) -> Folded? {
        folds[id].flatMap(Self.folded)
    }

    /// Every kept line, by widget id, at a state write; each widget's next line is then written at once.
    mutating func takeAll() -> [(id: String, folded: Folded)] {
        guard !folds.isEmpty else { return [] }
        var taken: [(id: String, folded: Folded)] = []
        for (id, fold) in folds {
            if let folded = Self.folded(fold) { taken.append((id, folded)) }
        }
        folds.removeAll(keepingCapacity: true)
        return taken.sorted { $0.id < $1.id }
    }

    private static func folded(_ fold: Fold) -> Folded? {
        fold.kept.map { Folded(line: $0, earlierRuns: fold.runs - 1) }
    }
}
