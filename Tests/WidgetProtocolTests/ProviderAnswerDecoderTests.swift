import Foundation
import Testing
import WidgetProtocol
import WidgetSchedulerCore

private func date(_ text: String) -> Date {
    RFC3339.date(from: text) ?? Date.distantPast
}

@Test("a timeline answer decodes to entries sorted by date with compact, key-sorted content")
func timelineDecodesSortedWithCompactContent() throws {
    let answer = #"""
        {"entries": [
           {"date": "2026-01-05T08:10:00Z", "content": {"temp": 3, "city": "Paris"}},
           {"date": "2026-01-05T09:05:00.500+01:00", "relevance": {"score": 10, "duration": 3600}, "content": [1, 2.5]},
           {"date": "2026-01-05T08:00:00z", "relevance": {"score": -1.5}, "content": "now"}
         ],
         "policy": "atEnd"}
        """#
    let timeline = try ProviderAnswerDecoder.timeline(from: Array(answer.utf8)).get()
    #expect(timeline.policy == .atEnd)
    #expect(timeline.entries.map(\.date) == [
        date("2026-01-05T08:00:00Z"), date("2026-01-05T08:05:00.5Z"), date("2026-01-05T08:10:00Z"),
    ])
    #expect(timeline.entries.map(\.content) == [#""now""#, "[1,2.5]", #"{"city":"Paris","temp":3}"#])
    #expect(timeline.entries.map(\.relevance) == [
        TimelineEntryRelevance(score: -1.5, duration: 0), TimelineEntryRelevance(score: 10, duration: 3600), nil,
    ])
}

@Test("each reload policy shape decodes", arguments: [
    (#""atEnd""#, ReloadPolicy.atEnd),
    (#""never""#, ReloadPolicy.never),
    (#"{"after": "2026-01-05T10:00:00+02:00"}"#, ReloadPolicy.after(Date(timeIntervalSince1970: 1_767_600_000))),
])
func reloadPolicyDecodes(_ policyJSON: String, _ expected: ReloadPolicy) throws {
    let answer = #"{"entries": [{"date": "2026-01-05T08:00:00Z", "content": null}], "policy": \#(policyJSON)}"#
    #expect(try ProviderAnswerDecoder.timeline(from: Array(answer.utf8)).get().policy == expected)
}

@Test("exactly the entry limit is accepted")
func entryLimitIsInclusive() throws {
    let entries = (0..<1000).map { index in
        let date = RFC3339.string(from: Date(timeIntervalSince1970: Double(index) * 300))
        return #"{"date": "\#(date)", "content": \#(index)}"#
    }
    let answer = #"{"entries": [\#(entries.joined(separator: ","))], "policy": "never"}"#
    #expect(try ProviderAnswerDecoder.timeline(from: Array(answer.utf8)).get().entries.count == 1000)
}

@Test("snapshot and placeholder answers decode to one entry")
func entryAnswerDecodes() throws {
    let answer = #"{"entry": {"date": "2026-01-05T08:00:00Z", "relevance": null, "content": {"text": "12:00"}}}"#
    for kind in [ProviderRequestKind.snapshot, .placeholder] {
        let decoded = try ProviderAnswerDecoder.answer(to: kind, from: Array(answer.utf8)).get()
        #expect(decoded == .entry(TimelineEntry(date: date("2026-01-05T08:00:00Z"), content: #"{"text":"12:00"}"#)))
    }
}

@Test("a defaults answer decodes to its configuration")
func defaultsAnswerDecodes() throws {
    let answer = #"{"configuration": {"location": "Cupertino", "days": 3, "metric": true}}"#
    let configuration = try ProviderAnswerDecoder.configuration(from: Array(answer.utf8)).get()
    #expect(configuration == ["location": .string("Cupertino"), "days": .integer(3), "metric": .bool(true)])
}

@Test("an options answer decodes in order, with optional subtitles")
func optionsAnswerDecodes() throws {
    let answer = #"""
        {"options": [{"value": "paris", "title": "Paris", "subtitle": "France"}, {"value": 75, "title": "Parma"}]}
        """#
    let options = try ProviderAnswerDecoder.options(from: Array(answer.utf8)).get()
    #expect(options == [
        ParameterOption(value: .string("paris"), title: "Paris", subtitle: "France"),
        ParameterOption(value: .integer(75), title: "Parma"),
    ])
}
