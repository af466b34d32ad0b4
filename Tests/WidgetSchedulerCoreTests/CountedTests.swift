import Testing
import WidgetSchedulerCore

/// Counts read as English: one of a thing, several things.
struct CountedTests {
    @Test("a noun agrees with its count", arguments: [
        (0, "option", nil, "0 options"), (1, "option", nil, "1 option"), (2, "option", nil, "2 options"),
        (1, "entry", "entries", "1 entry"), (3, "entry", "entries", "3 entries"),
    ] as [(Int, String, String?, String)])
    func phrase(_ count: Int, _ singular: String, _ plural: String?, _ expected: String) {
        #expect(Counted.phrase(count, singular, plural: plural) == expected)
    }
}
