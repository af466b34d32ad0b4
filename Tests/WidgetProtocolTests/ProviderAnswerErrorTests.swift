import Foundation
import Testing
import WidgetProtocol
import WidgetSchedulerCore

/// One row per error message of the provider answer decoder: the answer and the exact message it must produce.
struct ProviderAnswerErrorCase: CustomTestStringConvertible, Sendable {
    let request: ProviderRequestKind
    let answer: String
    let message: String
    var maxEntries = ProviderAnswerDecoder.defaultMaxEntries

    var testDescription: String { message }
}

private let validEntry = #"{"date": "2026-01-05T08:00:00Z", "content": null}"#

private func manyEntries(_ count: Int) -> String {
    let entries = (0..<count).map { index in
        let date = RFC3339.string(from: Date(timeIntervalSince1970: 1_767_600_000 + Double(index)))
        return #"{"date": "\#(date)", "content": \#(index)}"#
    }
    return #"{"entries": [\#(entries.joined(separator: ","))], "policy": "atEnd"}"#
}

private let errorCases: [ProviderAnswerErrorCase] = [
    .init(request: .timeline, answer: "", message: "answer is not JSON: the output is empty"),
    .init(request: .timeline, answer: "[1, 2]", message: "answer must be a JSON object, found array"),
    .init(request: .timeline, answer: #"{"policy": "atEnd"}"#, message: #"answer has no "entries""#),
    .init(request: .timeline, answer: #"{"entries": [\#(validEntry)]}"#, message: #"answer has no "policy""#),
    .init(
        request: .timeline, answer: #"{"entries": [\#(validEntry)], "policy": "atEnd", "polcy": 1}"#,
        message: #"answer has an unknown field "polcy""#
    ),
    .init(
        request: .timeline, answer: #"{"entries": {}, "policy": "atEnd"}"#,
        message: #""entries" must be an array, found object"#
    ),
    .init(
        request: .timeline, answer: #"{"entries": [], "policy": "atEnd"}"#,
        message: #""entries" is empty: a timeline needs at least one entry"#
    ),
    .init(
        request: .timeline, answer: manyEntries(4), message: "too many entries: 4 (limit 3)", maxEntries: 3
    ),
    .init(request: .timeline, answer: manyEntries(1001), message: "too many entries: 1001 (limit 1000)"),
    .init(
        request: .timeline, answer: #"{"entries": [\#(validEntry), "x"], "policy": "atEnd"}"#,
        message: "entry 1 must be an object, found string"
    ),
    .init(
        request: .timeline, answer: #"{"entries": [{"content": 1}], "policy": "atEnd"}"#,
        message: #"entry 0: missing "date""#
    ),
    .init(
        request: .timeline, answer: #"{"entries": [{"date": "2026-01-05T08:00:00Z"}], "policy": "atEnd"}"#,
        message: #"entry 0: missing "content""#
    ),
    .init(
        request: .timeline,
        answer: #"{"entries": [{"date": "2026-01-05T08:00:00Z", "content": 1, "relevence": 1}], "policy": "atEnd"}"#,
        message: #"entry 0: unknown field "relevence""#
    ),
    .init(
        request: .timeline,
        answer: #"{"entries": [\#(validEntry), {"date": 1767600000, "content": 1}], "policy": "atEnd"}"#,
        message: #"entry 1: "date" must be an RFC 3339 date string, found 1767600000"#
    ),
    .init(
        request: .timeline,
        answer: #"""
            {"entries": [{"date": "2026-01-05T08:00:00Z", "content": 0}, {"date": "2026-01-05T08:05:00Z", "content": 1},
             {"date": "2026-01-05T08:10:00Z", "content": 2}, {"date": "tomorrow", "content": 3}], "policy": "atEnd"}
            """#,
        message: #"entry 3: "date" is not an RFC 3339 date: "tomorrow""#
    ),
    .init(
        request: .timeline,
        answer: #"""
            {"entries": [{"date": "2026-01-05T08:00:00Z", "content": 0}, {"date": "2026-01-05T08:10:00Z", "content": 1},
             {"date": "2026-01-05T09:10:00+01:00", "content": 2}], "policy": "atEnd"}
            """#,
        message: "entry 2: duplicate date 2026-01-05T08:10:00Z (same as entry 1)"
    ),
    .init(
        request: .timeline,
        answer: #"{"entries": [{"date": "2026-01-05T08:00:00Z", "content": 0, "relevance": 5}], "policy": "atEnd"}"#,
        message: #"entry 0: "relevance" must be an object {"score", "duration"}, found 5"#
    ),
    .init(
        request: .timeline,
        answer: #"{"entries": [{"date": "2026-01-05T08:00:00Z", "content": 0, "relevance": {}}], "policy": "atEnd"}"#,
        message: #"entry 0: missing "relevance.score""#
    ),
    .init(
        request: .timeline,
        answer: #"""
            {"entries": [{"date": "2026-01-05T08:00:00Z", "content": 0, "relevance": {"score": "high"}}],
             "policy": "atEnd"}
            """#,
        message: #"entry 0: "relevance.score" must be a finite number within ±3.4028235e+38, found "high""#
    ),
    .init(
        request: .timeline,
        answer: #"""
            {"entries": [{"date": "2026-01-05T08:00:00Z", "content": 0, "relevance": {"score": 1, "duration": -5}}],
             "policy": "atEnd"}
            """#,
        message: #"entry 0: "relevance.duration" must be a number of seconds from 0 to 253402300799.999, found -5"#
    ),
    .init(
        request: .timeline,
        answer: #"""
            {"entries": [{"date": "2026-01-05T08:00:00Z", "content": 0, "relevance": {"score": 1, "weight": 2}}],
             "policy": "atEnd"}
            """#,
        message: #"entry 0: unknown field "relevance.weight""#
    ),
    .init(
        request: .timeline, answer: #"{"entries": [\#(validEntry)], "policy": "sometimes"}"#,
        message: #""policy" must be "atEnd", "never" or {"after": date}, found "sometimes""#
    ),
    .init(
        request: .timeline, answer: #"{"entries": [\#(validEntry)], "policy": {"after": "soon"}}"#,
        message: #""policy": "after" is not an RFC 3339 date: "soon""#
    ),
    .init(
        request: .timeline,
        answer: #"""
            {"entries": [{"date": "2026-01-05T08:00:00Z", "content": 0, "relevance": {"score": 1, "duration": 1e17}}],
             "policy": "never"}
            """#,
        message: #"entry 0: "relevance.duration" must be a number of seconds from 0 to 253402300799.999, "#
            + "found 100000000000000000"
    ),
    .init(
        request: .timeline,
        answer: #"""
            {"entries": [\#(validEntry), {"date": "2026-01-05T09:00:00Z", "content": 0,
             "relevance": {"score": 1, "duration": 253402300800}}], "policy": "never"}
            """#,
        message: #"entry 1: "relevance.duration" must be a number of seconds from 0 to 253402300799.999, "#
            + "found 253402300800"
    ),
    .init(
        request: .timeline,
        answer: #"""
            {"entries": [{"date": "2026-01-05T08:00:00Z", "content": 0, "relevance": {"score": 1e300}}],
             "policy": "never"}
            """#,
        message: #"entry 0: "relevance.score" must be a finite number within ±3.4028235e+38, found 1e+300"#
    ),
    .init(
        request: .timeline,
        answer: #"""
            {"entries": [{"date": "2026-01-05T08:00:00Z", "content": 0, "relevance": {"score": -1e39}}],
             "policy": "never"}
            """#,
        message: #"entry 0: "relevance.score" must be a finite number within ±3.4028235e+38, found -1e+39"#
    ),
    .init(
        request: .timeline,
        answer: #"{"entries": [{"date": "0001-01-01T00:00:00Z", "content": 0}], "policy": "never"}"#,
        message: #"entry 0: "date" must be a date from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z, "#
            + #"found "0001-01-01T00:00:00Z""#
    ),
    .init(
        request: .timeline,
        answer: #"{"entries": [\#(validEntry), {"date": "1969-12-31T23:59:59Z", "content": 0}], "policy": "never"}"#,
        message: #"entry 1: "date" must be a date from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z, "#
            + #"found "1969-12-31T23:59:59Z""#
    ),
    .init(
        request: .timeline,
        answer: #"{"entries": [{"date": "9999-12-31T23:59:59-00:01", "content": 0}], "policy": "never"}"#,
        message: #"entry 0: "date" must be a date from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z, "#
            + #"found "9999-12-31T23:59:59-00:01""#
    ),
    .init(
        request: .timeline, answer: #"{"entries": [\#(validEntry)], "policy": {"after": "9999-12-31T23:59:60Z"}}"#,
        message: #""policy": "after" must be a date from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z, "#
            + #"found "9999-12-31T23:59:60Z""#
    ),
    .init(
        request: .snapshot, answer: #"{"entry": {"date": "1900-01-01T00:00:00Z", "content": 1}}"#,
        message: #"entry: "date" must be a date from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z, "#
            + #"found "1900-01-01T00:00:00Z""#
    ),
    .init(
        request: .timeline, answer: #"{"entries": [\#(validEntry)], "policy": "atEnd", "policy": "never"}"#,
        message: #"answer has the key "policy" more than once"#
    ),
    .init(
        request: .timeline,
        answer: #"{"entries": [{"date": "2026-01-05T08:00:00Z", "date": "2027-01-05T08:00:00Z", "content": 1}], "#
            + #""policy": "atEnd"}"#,
        message: #"answer has the key "date" more than once (in entries[0])"#
    ),
    .init(
        request: .timeline,
        answer: #"{"entries": [\#(validEntry), {"date": "2026-01-05T09:00:00Z", "content": {"t": 1, "\u0074": 2}}], "#
            + #""policy": "atEnd"}"#,
        message: #"answer has the key "t" more than once (in entries[1].content)"#
    ),
    .init(
        request: .timeline,
        answer: #"{"entries": [{"date": "2026-01-05T08:00:00Z", "content": 9007199254740993, "#
            + #""relevance": {"score": 1, "score": 2}}], "policy": "atEnd"}"#,
        message: #"answer has the key "score" more than once (in entries[0].relevance)"#
    ),
    .init(
        request: .defaults, answer: #"{"configuration": {"city": "Paris", "city": "Oslo"}}"#,
        message: #"answer has the key "city" more than once (in configuration)"#
    ),
    .init(
        request: .options, answer: #"{"options": [{"value": 1, "title": "One", "title": "Two"}]}"#,
        message: #"answer has the key "title" more than once (in options[0])"#
    ),
    .init(request: .snapshot, answer: #"{"entries": []}"#, message: #"answer has an unknown field "entries""#),
    .init(request: .placeholder, answer: "{}", message: #"answer has no "entry""#),
    .init(request: .snapshot, answer: #"{"entry": 3}"#, message: "entry must be an object, found integer"),
    .init(
        request: .snapshot, answer: #"{"entry": {"date": "2026-13-01T00:00:00Z", "content": 1}}"#,
        message: #"entry: "date" is not an RFC 3339 date: "2026-13-01T00:00:00Z""#
    ),
    .init(request: .defaults, answer: #"{"configuration": []}"#, message: #""configuration" must be "#
        + #"an object, found array"#),
    .init(request: .options, answer: #"{"options": "Paris"}"#, message: #""options" must be an array, found string"#),
    .init(request: .options, answer: #"{"options": [1]}"#, message: "option 0: must be an object, found integer"),
    .init(request: .options, answer: #"{"options": [{"title": "Paris"}]}"#, message: #"option 0: missing "value""#),
    .init(request: .options, answer: #"{"options": [{"value": "paris"}]}"#, message: #"option 0: missing "title""#),
    .init(
        request: .options, answer: #"{"options": [{"value": "paris", "title": 7}]}"#,
        message: #"option 0: "title" must be a string, found 7"#
    ),
    .init(
        request: .options, answer: #"{"options": [{"value": "paris", "title": "Paris", "subtitle": false}]}"#,
        message: #"option 0: "subtitle" must be a string, found false"#
    ),
    .init(
        request: .options, answer: #"{"options": [{"value": "paris", "title": "Paris", "icon": "x"}]}"#,
        message: #"option 0: unknown field "icon""#
    ),
]

@Test("each invalid answer is rejected with a message naming the entry and field", arguments: errorCases)
func invalidAnswerIsRejectedWithItsMessage(_ testCase: ProviderAnswerErrorCase) {
    let result = ProviderAnswerDecoder.answer(
        to: testCase.request, from: Array(testCase.answer.utf8), maxEntries: testCase.maxEntries
    )
    switch result {
    case .success(let answer):
        Issue.record("accepted: \(answer)")
    case .failure(let error):
        #expect(error.description == testCase.message)
    }
}

@Test(
    "text that is not JSON is rejected with the parser's reason",
    arguments: ["{", "entries", "{\"a\" 1}", "\u{1}", "{} {}"]
)
func nonJSONIsRejected(_ text: String) {
    guard case .failure(let error) = ProviderAnswerDecoder.timeline(from: Array(text.utf8)) else {
        Issue.record("accepted \(text)")
        return
    }
    #expect(error.description.hasPrefix("answer is not JSON: "))
    #expect(error.description.count > "answer is not JSON: ".count)
    #expect(error.reason == .invalid)
}

@Test("too many entries is the output-too-large reason; other errors are invalid")
func tooManyEntriesIsOutputTooLarge() {
    #expect(ProviderAnswerError.tooManyEntries(count: 1001, limit: 1000).reason == .outputTooLarge)
    #expect(ProviderAnswerError.noEntries.reason == .invalid)
}
