import Foundation
import Testing
import WidgetSchedulerCore

@Suite struct TimelineTests {
    private static let start = Date(timeIntervalSince1970: 1_767_600_000)

    private static func entries(_ offsets: [(Double, String)]) -> [TimelineEntry] {
        offsets.map { TimelineEntry(date: start.addingTimeInterval($0.0), content: "\"\($0.1)\"") }
    }

    @Test("entries come out in date order, entries of one date in the order given", arguments: [
        [(0.0, "a"), (60, "b"), (120, "c")],
        [(120.0, "c"), (0, "a"), (60, "b")],
        [(60.0, "b1"), (0, "a"), (60, "b2"), (60, "b3")],
        [(0.0, "a"), (0, "a2"), (60, "b")],
        [(60.0, "b"), (0, "a")],
        [],
    ])
    func entriesAreInDateOrder(_ offsets: [(Double, String)]) {
        let timeline = Timeline(entries: Self.entries(offsets), policy: .atEnd)
        let expected = offsets.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }
        #expect(timeline.entries.map(\.content) == expected.map { "\"\($0.element.1)\"" })
    }
}
