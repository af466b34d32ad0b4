import Testing
@testable import WidgetSchedulerCore
import WidgetSchedulerCoreTestKit

/// The slot queue by position: who gets the next free slot, while widgets wait, leave the queue and the scheduler's
/// table moves its last widget into a removed one's place.
struct SlotQueueTests {
    typealias Table = QueueBesideTable<SlotQueue>

    enum Step {
        case add(String), wait(String, priority: Int), leave(String), remove(String)
    }

    static let cases: [(name: String, steps: [Step], order: [String])] = [
        ("higher priority first, then first come",
         [.add("a"), .add("b"), .add("c"), .wait("a", priority: 0), .wait("b", priority: 1), .wait("c", priority: 0)],
         ["b", "a", "c"]),
        ("waiting again keeps the first place",
         [.add("a"), .add("b"), .wait("a", priority: 0), .wait("b", priority: 0), .wait("a", priority: 0)],
         ["a", "b"]),
        ("a widget that left is not served, and queues at the back when it comes again",
         [.add("a"), .add("b"), .wait("a", priority: 0), .wait("b", priority: 0), .leave("a"),
          .wait("a", priority: 0)],
         ["b", "a"]),
        ("the widget moved into a removed one's place keeps its place in the queue",
         [.add("a"), .add("b"), .add("c"), .wait("c", priority: 0), .wait("b", priority: 0), .remove("a")],
         ["c", "b"]),
        ("a removed widget is not served",
         [.add("a"), .add("b"), .wait("a", priority: 0), .wait("b", priority: 0), .remove("a")],
         ["b"]),
        ("a widget added where a removed one was does not inherit its place",
         [.add("a"), .add("b"), .wait("b", priority: 0), .remove("b"), .add("c")],
         []),
    ]

    @Test(arguments: cases.indices)
    func waitingWidgetsAreServedByPriorityThenArrival(index: Int) {
        let testCase = Self.cases[index]
        var table = Table()
        for step in testCase.steps {
            switch step {
            case .add(let id): table.add(id)
            case .wait(let id, let priority): table.wait(id, priority: priority)
            case .leave(let id): table.leave(id)
            case .remove(let id): table.remove(id)
            }
        }
        for id in table.table.keys {
            #expect(table.waits(id) == testCase.order.contains(id), "\(testCase.name): \(id)")
        }
        #expect(table.drain() == testCase.order, "\(testCase.name)")
    }

    @Test func aWidgetQueuedAgainAndAgainWhileNoSlotFreesLeavesNoPileOfStaleElements() {
        var table = Table()
        for id in ["a", "b"] { table.add(id) }
        table.wait("a", priority: 0)
        table.wait("b", priority: 0)
        for _ in 0..<1_000 {
            table.leave("a")
            table.wait("a", priority: 0)
        }
        // Two waiting widgets: stale elements are dropped whenever the heap holds more than 2 × 2 + 64.
        #expect(table.queue.elementCount <= 68)
        #expect(table.drain() == ["b", "a"])
    }

    @Test func agreesWithAnOrderedListOverRandomChanges() {
        var generator = SeededGenerator(seed: 11)
        var table = Table()
        // The model: waiting widgets with their priority, in arrival order.
        var model: [(id: String, priority: Int)] = []
        for step in 0..<3_000 {
            let roll = Int.random(in: 0..<10, using: &generator)
            switch table.randomStep(roll: roll, using: &generator) {
            case .added:
                break
            case .removed(let id):
                model.removeAll { $0.id == id }
            case .picked(let id) where roll < 6:
                let priority = Int.random(in: 0..<2, using: &generator)
                table.wait(id, priority: priority)
                if !model.contains(where: { $0.id == id }) { model.append((id, priority)) }
            case .picked(let id) where roll < 8:
                table.leave(id)
                model.removeAll { $0.id == id }
            case .picked:
                let first = model.indices.max { model[$0].priority < model[$1].priority || (
                    model[$0].priority == model[$1].priority && $0 > $1) }
                let expected = first.map { model.remove(at: $0).id }
                let served = table.queue.popFirst()
                #expect(served?.id == expected, "step \(step)")
                if let served { #expect(table.table.keys[served.position] == served.id, "step \(step)") }
                #expect(table.queue.isEmpty == model.isEmpty, "step \(step)")
            }
        }
    }
}

extension QueueBesideTable<SlotQueue> {
    mutating func wait(_ id: String, priority: Int) {
        queue.insert(id, at: position(id), priority: priority)
    }

    mutating func leave(_ id: String) {
        queue.remove(at: position(id))
    }

    func waits(_ id: String) -> Bool { queue.contains(at: position(id)) }

    /// Every waiting widget in turn, each checked to come with its current position.
    mutating func drain() -> [String] {
        var order: [String] = []
        while let next = queue.popFirst() {
            #expect(table.keys[next.position] == next.id, "\(next.id) came with position \(next.position)")
            order.append(next.id)
        }
        #expect(queue.isEmpty)
        return order
    }
}
