import Testing
@testable import WidgetSchedulerCore
import WidgetSchedulerCoreTestKit

/// The deadline queue by position: what comes due, in which order and at which position, while deadlines change and
/// the scheduler's table moves its last widget into a removed one's place.
struct DeadlineQueueTests {
    typealias Table = QueueBesideTable<DeadlineQueue>

    enum Step {
        case add(String), set(String, Double?), remove(String)
    }

    static let cases: [(name: String, steps: [Step], through: Double, due: [String], earliest: Double?)] = [
        ("earliest first, equal times in id order",
         [.add("c"), .add("a"), .add("b"), .set("c", 5), .set("a", 7), .set("b", 5)], 10, ["b", "c", "a"], nil),
        ("a changed deadline replaces the old one",
         [.add("a"), .set("a", 1), .set("a", 8)], 5, [], 8),
        ("a cleared deadline never comes due",
         [.add("a"), .add("b"), .set("a", 1), .set("b", 2), .set("a", nil)], 5, ["b"], nil),
        ("the widget moved into a removed one's place keeps its deadline",
         [.add("a"), .add("b"), .add("c"), .set("a", 1), .set("c", 3), .remove("a")], 5, ["c"], nil),
        ("a moved widget without a deadline gets none",
         [.add("a"), .add("b"), .set("a", 1), .remove("a")], 5, [], nil),
        ("removing the last widget drops its deadline",
         [.add("a"), .add("b"), .set("a", 1), .set("b", 2), .remove("b")], 5, ["a"], nil),
        ("a widget added where a removed one was does not inherit its deadline",
         [.add("a"), .add("b"), .set("b", 2), .remove("b"), .add("c")], 5, [], nil),
        ("only deadlines up to the time come due",
         [.add("a"), .add("b"), .set("a", 1), .set("b", 9)], 5, ["a"], 9),
    ]

    @Test(arguments: cases.indices)
    func dueWidgetsComeInDeadlineOrderAtTheirPositions(index: Int) {
        let testCase = Self.cases[index]
        var table = Table()
        for step in testCase.steps {
            switch step {
            case .add(let id): table.add(id)
            case .set(let id, let time): table.set(id, time)
            case .remove(let id): table.remove(id)
            }
        }
        #expect(table.popDue(through: testCase.through) == testCase.due, "\(testCase.name)")
        #expect(table.queue.earliest() == testCase.earliest, "\(testCase.name)")
    }

    @Test func manyChangesToFewWidgetsKeepOnlyTheLatestDeadlines() {
        // Enough changes that the stale elements are compacted away several times.
        var table = Table()
        for id in ["a", "b", "c"] { table.add(id) }
        for round in 0..<500 {
            table.set("a", Double(1_000 - round))
            table.set("b", Double(2_000 + round))
        }
        // Two live deadlines: the heap is compacted whenever it holds more than 2 × 2 + 64 elements.
        #expect(table.queue.elementCount <= 68)
        #expect(table.popDue(through: 10_000) == ["a", "b"])
        #expect(table.queue.earliest() == nil)
    }

    @Test func agreesWithAKeyedModelOverRandomChanges() {
        var generator = SeededGenerator(seed: 7)
        var table = Table()
        var model: [String: Double] = [:]
        for step in 0..<3_000 {
            let roll = Int.random(in: 0..<10, using: &generator)
            switch table.randomStep(roll: roll, using: &generator) {
            case .added:
                break
            case .removed(let id):
                model[id] = nil
            case .picked(let id) where roll < 8:
                let time: Double? = roll == 7 ? nil : Double(Int.random(in: 0..<50, using: &generator))
                table.set(id, time)
                model[id] = time
            case .picked:
                let through = Double(Int.random(in: 0..<50, using: &generator))
                let expected = model.filter { $0.value <= through }
                    .sorted { $0.value != $1.value ? $0.value < $1.value : $0.key < $1.key }.map(\.key)
                for id in expected { model[id] = nil }
                #expect(table.popDue(through: through) == expected, "step \(step)")
                #expect(table.queue.earliest() == model.values.min(), "step \(step)")
            }
        }
    }
}

extension QueueBesideTable<DeadlineQueue> {
    mutating func set(_ id: String, _ time: Double?) {
        queue.set(id, at: position(id), to: time)
    }

    /// The due widgets, each checked to come with its current position.
    mutating func popDue(through time: Double) -> [String] {
        queue.popDue(through: time).map { due in
            #expect(table.keys[due.position] == due.id, "\(due.id) came with position \(due.position)")
            return due.id
        }
    }
}
