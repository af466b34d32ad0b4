import HeapModule

/// The next instant each widget needs attention, in one min-heap: O(log n) per change, O(1) for the earliest.
///
/// Changing a widget's deadline pushes a new element and bumps the widget's generation; elements of older
/// generations are skipped when they surface (lazy deletion), and the heap is rebuilt when they pile up.
struct DeadlineQueue {
    private struct Element: Comparable {
        var time: Double
        var widget: String
        var generation: UInt64

        static func < (lhs: Element, rhs: Element) -> Bool {
            lhs.time != rhs.time ? lhs.time < rhs.time : lhs.widget < rhs.widget
        }
    }

    private var heap = Heap<Element>()
    private var current: [String: (time: Double, generation: UInt64)] = [:]
    private var nextGeneration: UInt64 = 0

    /// Sets (or clears, with nil) the widget's deadline.
    mutating func set(_ widget: String, to time: Double?) {
        guard let time, time.isFinite else {
            current[widget] = nil
            return
        }
        if let existing = current[widget], existing.time == time { return }
        nextGeneration &+= 1
        current[widget] = (time, nextGeneration)
        heap.insert(Element(time: time, widget: widget, generation: nextGeneration))
        if heap.count > 2 * current.count + 64 { compact() }
    }

    /// The earliest live deadline.
    mutating func earliest() -> Double? {
        dropStale()
        return heap.min?.time
    }

    /// Removes and returns the widgets whose deadline is ≤ `time`, earliest first.
    mutating func popDue(through time: Double) -> [String] {
        var due: [String] = []
        while true {
            dropStale()
            guard let top = heap.min, top.time <= time else { break }
            heap.removeMin()
            current[top.widget] = nil
            due.append(top.widget)
        }
        return due
    }

    private mutating func dropStale() {
        while let top = heap.min, current[top.widget]?.generation != top.generation {
            heap.removeMin()
        }
    }

    private mutating func compact() {
        heap = Heap(current.map { Element(time: $0.value.time, widget: $0.key, generation: $0.value.generation) })
    }
}
