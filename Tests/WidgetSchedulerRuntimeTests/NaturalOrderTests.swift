import Testing
@testable import WidgetSchedulerRuntime

/// `list` and `budget` sort widget ids naturally: w2 before w10.
struct NaturalOrderTests {
    @Test(arguments: [
        ("w2", "w10", true), ("w10", "w2", false), ("w9", "w9", false), ("w1", "w1a", true), ("w1a", "w1b", true),
        ("a", "b", true), ("w007", "w8", true), ("w99999", "w100000", true), ("x1", "w2", false), ("", "w1", true),
        ("w1x2", "w1x10", true),
    ])
    func digitRunsCompareByValue(lhs: String, rhs: String, ascending: Bool) {
        #expect(WidgetService.naturalOrder(lhs, rhs) == ascending)
    }

    @Test func sortsGeneratedIDsAsNumbers() {
        let ids = (1...1_000).map { "w\($0)" }
        #expect(ids.shuffled().sorted(by: WidgetService.naturalOrder) == ids)
    }
}
