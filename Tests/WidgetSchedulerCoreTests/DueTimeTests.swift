import Foundation
import Testing
import WidgetSchedulerCore

/// The due time after a successful run that started at monotonic 1 000, wall 2026-01-05T08:00:00Z.
struct DueTimeTests {
    static let start = Instant(monotonic: 1_000, wall: Date(timeIntervalSince1970: 1_767_600_000))

    static func timeline(_ offsets: [Double], _ policy: ReloadPolicy) -> Timeline {
        Timeline(entries: offsets.map { TimelineEntry(date: start.wall.addingTimeInterval($0)) }, policy: policy)
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var timeline: Timeline
        var expected: Double?
        var testDescription: String { name }
    }

    @Test("atEnd, after and never give the documented due time", arguments: [
        Row(name: "atEnd: the latest entry date", timeline: timeline([0, 600, 1_200], .atEnd), expected: 2_200),
        Row(name: "atEnd: entries given out of order", timeline: timeline([1_200, 0], .atEnd), expected: 2_200),
        Row(name: "atEnd: no entries means the run's start", timeline: timeline([], .atEnd), expected: 1_000),
        Row(name: "atEnd: only past entries means the run's start", timeline: timeline([-600], .atEnd),
            expected: 1_000),
        Row(name: "after(d) in the future: d", timeline: timeline([0], .after(start.wall.addingTimeInterval(900))),
            expected: 1_900),
        Row(name: "after(d) before the run: the run's start",
            timeline: timeline([0], .after(start.wall.addingTimeInterval(-60))), expected: 1_000),
        Row(name: "never: never due", timeline: timeline([0, 600], .never), expected: nil),
    ])
    func due(_ row: Row) {
        let due = DueTime.after(success: TimelineOutline(row.timeline), runStart: Self.start)
        #expect(due?.resolved(at: Self.start) == row.expected)
    }

    @Test func aWallClockDueTimeFollowsAJumpOfTheWallClock() {
        let due = DueTime.wall(Self.start.wall.addingTimeInterval(3_600))
        let jumped = Instant(monotonic: 1_000, wall: Self.start.wall.addingTimeInterval(86_400))
        #expect(due.resolved(at: Self.start) == 4_600)
        #expect(due.resolved(at: jumped) == 4_600 - 86_400)
        #expect(DueTime.monotonic(5).resolved(at: jumped) == 5)
    }
}
