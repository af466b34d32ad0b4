@testable import WidgetSchedulerCore
import WidgetSchedulerCoreTestKit

/// A positioned queue beside a `DenseTable`, told of the table's additions and removals as the scheduler tells it.
struct QueueBesideTable<Queue: PositionedQueue> {
    var table = DenseTable<Int>()
    var queue = Queue()
    private var added = 0

    /// What `randomStep(roll:using:)` did to the table.
    enum TableStep {
        case added
        case removed(String)
        /// The table is left alone; the widget is for the caller's own step.
        case picked(String)
    }

    mutating func add(_ id: String) {
        table[id] = 0
        queue.append()
    }

    mutating func remove(_ id: String) {
        let removal = table.remove(id)!
        queue.removeWidget(at: removal.position, movedWidget: removal.movedKey)
    }

    func position(_ id: String) -> Int { table.position(forKey: id)! }

    /// A step of a differential test: adds a widget when the table is empty or `roll` is 0, removes a random one when
    /// it is 1, and otherwise picks a random one.
    mutating func randomStep(roll: Int, using generator: inout SeededGenerator) -> TableStep {
        if table.isEmpty || roll == 0 {
            added += 1
            add("w\(added)")
            return .added
        }
        let id = table.keys.randomElement(using: &generator)!
        guard roll == 1 else { return .picked(id) }
        remove(id)
        return .removed(id)
    }
}
