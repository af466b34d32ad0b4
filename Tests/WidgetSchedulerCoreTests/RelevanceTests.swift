import Foundation
import Testing
import WidgetSchedulerCore

/// WidgetKit's relevance rule at explicit instants, and the stack order it gives.
struct RelevanceTests {
    static let t0 = Date(timeIntervalSince1970: 1_767_600_000)

    static func timeline(_ entries: [(Double, Double?, Double)]) -> TimelineOutline {
        TimelineOutline(Timeline(entries: entries.map { offset, score, duration in
            TimelineEntry(date: t0.addingTimeInterval(offset),
                          relevance: score.map { TimelineEntryRelevance(score: $0, duration: duration) })
        }, policy: .never))
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var at: Double
        var score: Double?
        var testDescription: String { name }
    }

    // Entries: 0 → score 5 for 600 s; 1 000 → no relevance; 2 000 → score 8 until the next relevance; 3 000 → score 0.
    static let sample = timeline([(0, 5, 600), (1_000, nil, 0), (2_000, 8, 0), (3_000, 0, 0)])

    @Test("the newest relevance whose date has come holds for its duration or until the next", arguments: [
        Row(name: "before any entry", at: -1, score: nil),
        Row(name: "at the first entry", at: 0, score: 5),
        Row(name: "inside its duration", at: 599, score: 5),
        Row(name: "after its duration", at: 600, score: nil),
        Row(name: "an entry without relevance does not count", at: 1_500, score: nil),
        Row(name: "duration 0 holds until the next relevance", at: 2_999, score: 8),
        Row(name: "a zero score replaces it", at: 3_000, score: 0),
        Row(name: "the last relevance holds to the end", at: 99_999, score: 0),
    ])
    func current(_ row: Row) {
        let relevance = Relevance.current(in: Self.sample, at: Self.t0.addingTimeInterval(row.at), maxScore: 8)
        #expect(relevance?.score == row.score)
    }

    @Test func scoresAreNormalisedAgainstTheWidgetsOwnMaximum() {
        let relevance = Relevance.current(in: Self.sample, at: Self.t0, maxScore: 10)
        #expect(relevance?.normalized == 0.5)
        #expect(relevance?.until == Self.t0.addingTimeInterval(600))
    }

    @Test func theStackPutsTheMostRelevantFirstAndTheIrrelevantLast() {
        func widget(_ id: String, _ timeline: TimelineOutline, max: Double) -> WidgetSchedule {
            var schedule = WidgetSchedule(id: id, kind: "k", budget: RefreshBudget(tokens: 1, stamp: 0))
            schedule.timeline = timeline
            schedule.maxRelevanceScore = max
            return schedule
        }
        let widgets = [
            widget("low", Self.timeline([(0, 1, 0)]), max: 10),
            widget("none", Self.timeline([(0, nil, 0)]), max: 0),
            widget("peak", Self.timeline([(0, 3, 0)]), max: 3),
            widget("zero", Self.timeline([(0, 0, 0)]), max: 9),
        ]
        let order = RelevanceStack.order(widgets, at: Self.t0)
        #expect(order.map(\.widget) == ["peak", "low", "zero", "none"])
        #expect(order[0].explanation.contains("100% of its own maximum"))
        #expect(order[2].explanation.contains("not relevant"))
    }

    struct ScaleRow: Sendable, CustomTestStringConvertible {
        var name: String
        var at: Double
        var earlierMaximum: Double
        var normalized: Double
        var testDescription: String { name }
    }

    // Entries: 0 → score 5; 1 000 → score 500; 2 000 → score 50 (each until the next).
    static let rising = timeline([(0, 5, 0), (1_000, 500, 0), (2_000, 50, 0)])

    @Test("a score is scaled to the widget's greatest past score, never a future entry's", arguments: [
        ScaleRow(name: "the future 500 does not count yet", at: 0, earlierMaximum: 0, normalized: 1),
        ScaleRow(name: "an earlier timeline's past maximum counts", at: 0, earlierMaximum: 10, normalized: 0.5),
        ScaleRow(name: "the peak is 1 once its date has come", at: 1_000, earlierMaximum: 0, normalized: 1),
        ScaleRow(name: "a past peak of this timeline scales later scores", at: 2_000, earlierMaximum: 0,
                 normalized: 0.1),
    ])
    func scale(_ row: ScaleRow) {
        let relevance = Relevance.current(in: Self.rising, at: Self.t0.addingTimeInterval(row.at),
                                          maxScore: row.earlierMaximum)
        #expect(relevance?.normalized == row.normalized)
    }

    @Test func aNewTimelinesFutureScoresDoNotRaiseTheWidgetsMaximum() {
        var harness = SchedulerHarness()
        harness.at(0, .widgetAdded(id: "w", kind: "k"))
        let start = harness.wall(1)
        let entries = [TimelineEntry(date: start, relevance: TimelineEntryRelevance(score: 5)),
                       TimelineEntry(date: start.addingTimeInterval(3_600),
                                     relevance: TimelineEntryRelevance(score: 500))]
        harness.at(1, .runFinished(id: "w", outcome: .success(Timeline(entries: entries, policy: .never))))
        #expect(harness.scheduler.widgets["w"]?.maxRelevanceScore == 0)
        let stack = RelevanceStack.order([harness.scheduler.widgets["w"]!], at: start)
        #expect(stack.first?.relevance?.normalized == 1)
        // A later timeline replaces the first an hour on: the 500 that came to pass stays the widget's maximum.
        harness.at(3_601, .reloadRequested(.all, foreground: true, request: 1))
        harness.at(3_602, .runFinished(id: "w", outcome: .success(Timeline(entries: [
            TimelineEntry(date: harness.wall(3_602), relevance: TimelineEntryRelevance(score: 50)),
        ], policy: .never))))
        #expect(harness.scheduler.widgets["w"]?.maxRelevanceScore == 500)
        let later = RelevanceStack.order([harness.scheduler.widgets["w"]!], at: harness.wall(3_602))
        #expect(later.first?.relevance?.normalized == 0.1)
    }
}
