import HeapModule

/// Widgets whose run is ready but waits for a free slot: exempt reasons first, then first come, first served.
struct SlotQueue: Sendable {
    private struct Element: Comparable {
        var priority: Int
        var sequence: UInt64
        var widget: String

        static func < (lhs: Element, rhs: Element) -> Bool {
            lhs.priority != rhs.priority ? lhs.priority > rhs.priority : lhs.sequence < rhs.sequence
        }
    }

    private var heap = Heap<Element>()
    private var members: [String: UInt64] = [:]
    private var nextSequence: UInt64 = 0

    var isEmpty: Bool { members.isEmpty }

    func contains(_ widget: String) -> Bool { members[widget] != nil }

    mutating func insert(_ widget: String, priority: Int) {
        guard members[widget] == nil else { return }
        nextSequence += 1
        members[widget] = nextSequence
        heap.insert(Element(priority: priority, sequence: nextSequence, widget: widget))
    }

    mutating func remove(_ widget: String) {
        members[widget] = nil
    }

    mutating func popFirst() -> String? {
        while let top = heap.popMin() {
            if members[top.widget] == top.sequence {
                members[top.widget] = nil
                return top.widget
            }
        }
        return nil
    }
}
