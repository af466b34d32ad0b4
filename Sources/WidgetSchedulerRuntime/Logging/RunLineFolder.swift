/// Which of a widget's plain successful-run lines go to the journal at once, and which are folded into one line
/// written later.
///
/// A widget's first such run after a state write gets its line at once. Its further ones before the next write are
/// counted, and the last of them is kept: `takeAll()` hands it over at that write, with the number of earlier runs
/// it stands for, and `take(_:)` before any other line of the widget, so that the journal keeps the runs' order.
/// The daemon writes its state at the next idle moment, and at least 100 ms apart while changes keep coming
/// (`WritePacer`), so a widget gets at most about twenty run lines a second, and a run's line is at most one write
/// late.
///
/// Runs minutes apart, as the floor keeps every kind outside developer mode, are never folded; a provider looping in
/// developer mode is. A thousand lines a second would carry the unit past journald's rate limit (10 000 entries per
/// 30 s by default), which then drops the unit's other messages too, and cost the daemon a few per cent of each run.
/// Nothing else is folded: every run keeps its history line and its `runFinished` event.
struct RunLineFolder<Line> {
    /// A kept line, and how many of the widget's runs before it had no line of their own.
    struct Folded {
        var line: Line
        var earlierRuns: Int
    }

    private struct Fold {
        /// The last folded run's line, until it is taken.
        var kept: Line?
        /// The runs folded since the widget's last line, the kept one included.
        var runs = 0
    }

    /// The widgets with a line since the last write; a widget not here has its next line written at once.
    private var folds: [String: Fold] = [:]

    /// Whether `line`, a plain successful run's, is written now. When not, it is kept in place of the widget's
    /// previous kept line, which then counts as an earlier run.
    mutating func writesNow(_ id: String, _ line: Line) -> Bool {
        // One lookup, through the index: this is on every run's path.
        guard let index = folds.index(forKey: id) else {
            folds[id] = Fold()
            return true
        }
        folds.values[index].kept = line
        folds.values[index].runs += 1
        return false
    }

    /// The widget's kept line, to be written before another line of the widget; the widget's later plain runs are
    /// folded until the next write, as before.
    mutating func take(_ id: String) -> Folded? {
        guard let fold = folds[id], let line = fold.kept else { return nil }
        folds[id] = Fold()
        return Folded(line: line, earlierRuns: fold.runs - 1)
    }

    /// Every kept line, by widget id, at a state write; each widget's next line is then written at once.
    mutating func takeAll() -> [(id: String, folded: Folded)] {
        guard !folds.isEmpty else { return [] }
        var taken: [(id: String, folded: Folded)] = []
        for (id, fold) in folds {
            guard let line = fold.kept else { continue }
            taken.append((id, Folded(line: line, earlierRuns: fold.runs - 1)))
        }
        folds.removeAll(keepingCapacity: true)
        return taken.sorted { $0.id < $1.id }
    }
}
