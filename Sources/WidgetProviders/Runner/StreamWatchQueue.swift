import HeapModule

/// The moments the runner's live runs are due for their stream watch (`ProcessSpec.streamWatchDelay`), earliest
/// first, behind one timer of the runner's instead of a timer of each run's.
///
/// Nearly every run ends long before its watch is due, and an ended run's entry is not looked for when it ends: it
/// is dropped when it comes first in line, or with the others due (the caller skips runs that are no longer live).
/// The one timer is armed for the earliest entry of a run still going, and moved only when an earlier one arrives,
/// so a busy runner of quick runs sets it and wakes for it about once per watch delay rather than once per run.
struct StreamWatchQueue {
    private struct Entry: Comparable {
        var deadline: Double
        var tag: UInt64

        static func < (lhs: Entry, rhs: Entry) -> Bool {
            lhs.deadline != rhs.deadline ? lhs.deadline < rhs.deadline : lhs.tag < rhs.tag
        }
    }

    private var heap = Heap<Entry>()
    /// The moment the timer is armed for; infinity when it is not armed.
    private(set) var armedDeadline = Double.infinity

    /// The number of entries, ended runs' included.
    var count: Int { heap.count }

    /// Adds the run `tag`, due at `deadline` (monotonic seconds). Returns whether the timer must be armed for
    /// `deadline`: it is not armed, or armed for later.
    mutating func add(_ tag: UInt64, dueAt deadline: Double) -> Bool {
        heap.insert(Entry(deadline: deadline, tag: tag))
        return deadline < armedDeadline
    }

    /// The earliest moment of a run that `isLive` says is still going, if any; the entries of ended runs before it
    /// are dropped.
    mutating func earliestLive(_ isLive: (UInt64) -> Bool) -> Double? {
        while let first = heap.min, !isLive(first.tag) {
            heap.removeMin()
        }
        return heap.min?.deadline
    }

    /// Notes that the timer is armed for `deadline`.
    mutating func armed(for deadline: Double) {
        armedDeadline = deadline
    }

    /// The timer fired (or was cancelled): it is no longer armed.
    mutating func disarmed() {
        armedDeadline = .infinity
    }

    /// Removes and returns the runs due at or before `now`, earliest first.
    mutating func takeDue(at now: Double) -> [UInt64] {
        var due: [UInt64] = []
        while let first = heap.min, first.deadline <= now {
            heap.removeMin()
            due.append(first.tag)
        }
        return due
    }

    /// Removes and returns every run, earliest first.
    mutating func takeAll() -> [UInt64] {
        takeDue(at: .infinity)
    }

    /// Forgets every entry and the armed timer (the runner has no live run left and cancels its timer).
    mutating func removeAll() {
        heap = Heap()
        armedDeadline = .infinity
    }
}
