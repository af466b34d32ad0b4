import HeapModule

/// The next instant each widget needs attention, in one min-heap: O(log n) per change, O(1) for the earliest.
///
/// Widgets are known by their position in the scheduler's table as well as by id: each widget's live deadline is kept
/// in an array by position, so changing it hashes nothing (a run changes two deadlines, and with a keyed table each
/// change hashed the id twice). The queue's positions follow the table's: `append()` when the table adds a widget,
/// `removeWidget(at:movedWidget:)` when it moves its last widget into a removed one's place.
///
/// Changing a widget's deadline pushes a new element stamped with a new generation, unique to the queue; an element
/// whose position no longer holds its generation is stale and is skipped when it surfaces (lazy deletion), and the
/// heap is rebuilt when stale ones pile up. Equal times come out in id order.
struct DeadlineQueue {
    private struct Element: Comparable {
        var time: Double
        var widget: String
        var position: Int
        var generation: UInt64

        static func < (lhs: Element, rhs: Element) -> Bool {
            lhs.time != rhs.time ? lhs.time < rhs.time : lhs.widget < rhs.widget
        }
    }

    /// A widget's live deadline; generation 0 when it has none.
    private struct Deadline {
        var time: Double = 0
        var generation: UInt64 = 0
    }

    private var heap = Heap<Element>()
    private var current: ContiguousArray<Deadline> = []
    private var liveCount = 0
    private var nextGeneration: UInt64 = 0

    /// Makes room for `count` widgets.
    mutating func reserveCapacity(_ count: Int) {
        current.reserveCapacity(count)
    }

    /// A widget was added at the table's end, with no deadline yet.
    mutating func append() {
        current.append(Deadline())
    }

    /// Sets (or clears, with nil) the deadline of `widget`, at `position` of the table.
    mutating func set(_ widget: String, at position: Int, to time: Double?) {
        guard let time, time.isFinite else {
            clear(at: position)
            return
        }
        if current[position].generation != 0, current[position].time == time { return }
        if current[position].generation == 0 { liveCount += 1 }
        push(widget, at: position, time: time)
    }

    /// The widget at `position` was removed, and the table moved its last widget, `movedWidget` (nil when the removed
    /// one was the last), into that position.
    mutating func removeWidget(at position: Int, movedWidget: String?) {
        clear(at: position)
        let last = current.count - 1
        if position != last {
            let moved = current[last]
            if moved.generation != 0, let movedWidget {
                push(movedWidget, at: position, time: moved.time)
            }
        }
        current.removeLast()
    }

    /// The elements the heap holds, stale ones included: at most about twice the live deadlines.
    var elementCount: Int { heap.count }

    /// The earliest live deadline.
    mutating func earliest() -> Double? {
        dropStale()
        return heap.min?.time
    }

    /// Removes and returns the widgets whose deadline is ≤ `time`, earliest first, with their positions.
    mutating func popDue(through time: Double) -> [(id: String, position: Int)] {
        var due: [(id: String, position: Int)] = []
        while true {
            dropStale()
            guard let top = heap.min, top.time <= time else { break }
            heap.removeMin()
            clear(at: top.position)
            due.append((top.widget, top.position))
        }
        return due
    }

    // Every push may leave an older element stale (a changed deadline, a moved widget), so the bound on stale ones is
    // kept here, as `SlotQueue.push` keeps its own.
    private mutating func push(_ widget: String, at position: Int, time: Double) {
        nextGeneration &+= 1
        current[position] = Deadline(time: time, generation: nextGeneration)
        heap.insert(Element(time: time, widget: widget, position: position, generation: nextGeneration))
        if heap.count > 2 * liveCount + 64 { compact() }
    }

    private mutating func clear(at position: Int) {
        guard current[position].generation != 0 else { return }
        current[position] = Deadline()
        liveCount -= 1
    }

    private func isLive(_ element: Element) -> Bool {
        element.position < current.count && current[element.position].generation == element.generation
    }

    private mutating func dropStale() {
        while let top = heap.min, !isLive(top) {
            heap.removeMin()
        }
    }

    private mutating func compact() {
        heap = Heap(heap.unordered.filter(isLive))
    }
}
