import HeapModule

/// Widgets whose run is ready but waits for a free slot: exempt reasons first, then first come, first served.
///
/// As `DeadlineQueue`, it knows widgets by their position in the scheduler's table too, and keeps each one's place in
/// an array by position: asking whether a widget waits, queueing it and taking it out hash nothing. An element whose
/// position no longer holds its sequence number is stale and is skipped when it surfaces, or dropped when stale
/// ones pile up.
struct SlotQueue: Sendable {
    private struct Element: Comparable {
        var priority: Int
        var sequence: UInt64
        var widget: String
        var position: Int

        static func < (lhs: Element, rhs: Element) -> Bool {
            lhs.priority != rhs.priority ? lhs.priority > rhs.priority : lhs.sequence < rhs.sequence
        }
    }

    /// A widget's place: its sequence number (0 when it does not wait) and its priority.
    private struct Place: Sendable {
        var sequence: UInt64 = 0
        var priority = 0
    }

    private var heap = Heap<Element>()
    private var places: ContiguousArray<Place> = []
    private var waitingCount = 0
    private var nextSequence: UInt64 = 0

    var isEmpty: Bool { waitingCount == 0 }

    /// The elements the heap holds, stale ones included: at most about twice the waiting widgets.
    var elementCount: Int { heap.count }

    /// Makes room for `count` widgets.
    mutating func reserveCapacity(_ count: Int) {
        places.reserveCapacity(count)
    }

    /// A widget was added at the table's end, not waiting.
    mutating func append() {
        places.append(Place())
    }

    /// Whether the widget at `position` waits for a slot.
    func contains(at position: Int) -> Bool { places[position].sequence != 0 }

    /// Queues `widget`, at `position` of the table, behind those of its priority; nothing if it waits already.
    mutating func insert(_ widget: String, at position: Int, priority: Int) {
        guard places[position].sequence == 0 else { return }
        nextSequence += 1
        places[position] = Place(sequence: nextSequence, priority: priority)
        waitingCount += 1
        push(Element(priority: priority, sequence: nextSequence, widget: widget, position: position))
    }

    /// Takes the widget at `position` out of the queue, if it waits.
    mutating func remove(at position: Int) {
        guard places[position].sequence != 0 else { return }
        places[position] = Place()
        waitingCount -= 1
    }

    /// The widget at `position` was removed from the table, which moved its last widget, `movedWidget` (nil when the
    /// removed one was the last), into that position; a moved widget keeps its place in the queue.
    mutating func removeWidget(at position: Int, movedWidget: String?) {
        remove(at: position)
        let last = places.count - 1
        if position != last {
            let moved = places[last]
            places[position] = moved
            if moved.sequence != 0, let movedWidget {
                push(Element(priority: moved.priority, sequence: moved.sequence, widget: movedWidget,
                             position: position))
            }
        }
        places.removeLast()
    }

    /// Takes the first waiting widget out of the queue, with its position.
    mutating func popFirst() -> (id: String, position: Int)? {
        while let top = heap.popMin() {
            if isLive(top) {
                remove(at: top.position)
                return (top.widget, top.position)
            }
        }
        return nil
    }

    private func isLive(_ element: Element) -> Bool {
        element.position < places.count && places[element.position].sequence == element.sequence
    }

    // A widget taken out and queued again leaves its old element behind; while no slot frees, nothing pops them, so
    // they are dropped when they outnumber the waiting widgets (repeated requests for a kind that waits).
    private mutating func push(_ element: Element) {
        heap.insert(element)
        if heap.count > 2 * waitingCount + 64 { heap = Heap(heap.unordered.filter(isLive)) }
    }
}
