import Foundation
import Testing
import WidgetProtocol
import WidgetSchedulerCore
@testable import WidgetSchedulerRuntime

/// The timeline JSON the store keeps: written by hand, read back as the same timeline by `JSONDecoder` and by
/// `Timeline(storedJSON:)`, which reads the stored shape itself and agrees with `JSONDecoder` on anything else.
struct StoredTimelineJSONTests {
    static let epoch = Date(timeIntervalSinceReferenceDate: 800_000_000.123456)

    static let timelines: [Timeline] = [
        Timeline(entries: [], policy: .atEnd),
        Timeline(entries: [TimelineEntry(date: epoch, content: #"{"text":"a \"quoted\" / slash, é, 🙂, \n"}"#)],
                 policy: .never),
        Timeline(entries: [
            TimelineEntry(date: epoch.addingTimeInterval(-1e-3), relevance: TimelineEntryRelevance(score: 0.1,
                                                                                                   duration: 0)),
            TimelineEntry(date: epoch.addingTimeInterval(60), content: "null"),
            TimelineEntry(date: epoch.addingTimeInterval(3_600.5), relevance: TimelineEntryRelevance(score: -2e30,
                                                                                                     duration: 30),
                          content: "[1,2.5,\"\\u0001\"]"),
        ], policy: .after(epoch.addingTimeInterval(86_400.25))),
    ]

    @Test("stored timelines read back exactly", arguments: 0..<3)
    func roundTrip(_ index: Int) throws {
        let timeline = Self.timelines[index]
        let text = timeline.storedJSON()
        #expect(try JSONDecoder().decode(Timeline.self, from: Data(text.utf8)) == timeline)
        #expect(try Timeline(storedJSON: text) == timeline)
    }

    @Test func theStoredFormIsTheCodableForm() throws {
        // Rows written by earlier versions (JSONEncoder) and by this one decode alike: same keys and shapes.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for timeline in Self.timelines {
            let reference = try JSONSerialization.jsonObject(with: try encoder.encode(timeline)) as? NSDictionary
            let stored = try JSONSerialization.jsonObject(with: Data(timeline.storedJSON().utf8)) as? NSDictionary
            #expect(stored == reference)
        }
    }

    @Test("the stored shape is read without JSONDecoder, as this version and earlier ones wrote it",
          arguments: 0..<3)
    func theStoredShapeIsReadDirectly(_ index: Int) throws {
        let timeline = Self.timelines[index]
        let written = [timeline.storedJSON(), String(decoding: try JSONEncoder().encode(timeline), as: UTF8.self)]
        for text in written {
            let value = try #require(JSONValue(jsonText: text))
            #expect(Timeline.timeline(stored: value) == timeline, "\(text)")
        }
    }

    /// Stored texts off the common path, each read by `Timeline(storedJSON:)` exactly as `JSONDecoder` reads it:
    /// the same timeline, read without `JSONDecoder`, or `JSONDecoder`'s error, which names the key at fault. (Their
    /// values are all in range: `outOfRangeValuesAreRefused` has the others.)
    static let variants: [(name: String, text: String)] = [
        ("integral numbers", #"{"entries":[{"content":"1","date":800000000}],"policy":{"after":{"_0":800000060}}}"#),
        ("keys in another order, and unknown keys",
         #"{"policy":{"never":{"x":1}},"v":2,"entries":[{"date":1.5,"x":[],"content":"{}","relevance":null}]}"#),
        ("a relevance",
         #"{"entries":[{"content":"1","date":0,"relevance":{"score":2,"duration":0.5}}],"policy":{"atEnd":{}}}"#),
        ("a relevance without a duration",
         #"{"entries":[{"content":"1","date":0,"relevance":{"score":2}}],"policy":{"atEnd":{}}}"#),
        ("a relevance that is a number",
         #"{"entries":[{"content":"1","date":0,"relevance":3}],"policy":{"atEnd":{}}}"#),
        ("content that is not a string", #"{"entries":[{"content":{},"date":0}],"policy":{"atEnd":{}}}"#),
        ("a date that is a string", #"{"entries":[{"content":"1","date":"0"}],"policy":{"atEnd":{}}}"#),
        ("an entry without a date", #"{"entries":[{"content":"1"}],"policy":{"atEnd":{}}}"#),
        ("no entries", #"{"policy":{"atEnd":{}}}"#),
        ("a policy with two cases", #"{"entries":[],"policy":{"atEnd":{},"never":{}}}"#),
        ("an unknown policy", #"{"entries":[],"policy":{"sometimes":{}}}"#),
        ("a policy case that is not an object", #"{"entries":[],"policy":{"atEnd":true}}"#),
        ("after without its date", #"{"entries":[],"policy":{"after":{}}}"#),
        ("not JSON", #"{"entries":[}"#),
        ("a number beyond Double", #"{"entries":[{"content":"1","date":1e400}],"policy":{"atEnd":{}}}"#),
    ]

    @Test("off the common path, stored texts read as JSONDecoder reads them", arguments: Self.variants.indices)
    func agreesWithJSONDecoder(_ index: Int) {
        let (name, text) = Self.variants[index]
        let reference = Result { try JSONDecoder().decode(Timeline.self, from: Data(text.utf8)) }
        let direct = JSONValue(jsonText: text).flatMap(Timeline.timeline(stored:))
        let read = Result { try Timeline(storedJSON: text) }
        switch (reference, read) {
        case (.success(let expected), .success(let timeline)):
            #expect(timeline == expected, "\(name)")
            #expect(direct == expected, "\(name): not read directly")
        case (.failure(let expected), .failure(let error)):
            #expect(direct == nil, "\(name): read directly, though JSONDecoder refuses it")
            #expect(error is DecodingError, "\(name): \(error)")
            #expect("\(error)" == "\(expected)", "\(name)")
        default:
            Issue.record("\(name): JSONDecoder gives \(reference), Timeline(storedJSON:) \(read)")
        }
    }

    /// Values `JSONDecoder` reads but the service could not have stored, each refused naming the entry and field.
    static let outOfRange: [(text: String, error: String)] = [
        (#"{"entries":[{"content":"2","date":60},{"content":"1","date":0}],"policy":{"atEnd":{}}}"#,
         "entries[1].date is 2001-01-01T00:00:00Z, not a date after entries[0].date"),
        (#"{"entries":[{"content":"1","date":1e17}],"policy":{"atEnd":{}}}"#,
         "entries[0].date is 1.000000009783072e+17 s after 1970, not a date from 1970-01-01T00:00:00Z to "
            + "9999-12-31T23:59:59.999Z"),
        (#"{"entries":[{"content":"1","date":-1e9}],"policy":{"atEnd":{}}}"#,
         "entries[0].date is -21692800.0 s after 1970, not a date from 1970-01-01T00:00:00Z to "
            + "9999-12-31T23:59:59.999Z"),
        (#"{"entries":[{"content":"1","date":0,"relevance":{"score":1,"duration":1e17}}],"policy":{"atEnd":{}}}"#,
         "entries[0].relevance.duration is 1e+17, not a number of seconds from 0 to 253402300799.999"),
        (#"{"entries":[{"content":"1","date":0,"relevance":{"score":-1e39,"duration":0}}],"policy":{"atEnd":{}}}"#,
         "entries[0].relevance.score is -1e+39, not a finite number within ±3.4028235e+38"),
        (#"{"entries":[],"entries":[],"policy":{"atEnd":{}}}"#,
         "entries is given more than once, not a key given once"),
        (#"{"entries":[{"content":"1","date":0,"date":1}],"policy":{"atEnd":{}}}"#,
         "entries[0].date is given more than once, not a key given once"),
        (#"{"entries":[{"content":"1","date":0}],"policy":{"after":{"_0":1e300}}}"#,
         "policy.after is 1e+300 s after 1970, not a date from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z"),
    ]

    @Test("a stored value out of range, dates out of order or a key given twice are refused naming the field",
          arguments: Self.outOfRange.indices)
    func outOfRangeValuesAreRefused(_ index: Int) throws {
        let (text, message) = Self.outOfRange[index]
        let error = try #require(throws: StoredValueError.self) { try Timeline(storedJSON: text) }
        #expect(error.description == message)
    }

    /// A long timeline as the store keeps it, with contents that hold the bytes a scan must pass over (brackets,
    /// quotes and escapes inside strings), relevances and images.
    static let longTimeline = Timeline(entries: (0..<40).map(longTimelineEntry), policy: .atEnd)

    static func longTimelineEntry(_ index: Int) -> TimelineEntry {
        let relevance = index % 3 == 0 ? TimelineEntryRelevance(score: Double(index), duration: 5) : nil
        let image = EntryImage(sha256: String(repeating: "ab", count: 32), contentType: "image/png", width: 2,
                               height: 3, byteCount: 120)
        let content: String = #"{"n":"# + String(index) + #","s":"]}\",{[ \\ é"}"#
        return TimelineEntry(date: epoch.addingTimeInterval(Double(index) * 60.5), relevance: relevance,
                             content: content, images: index % 4 == 0 ? ["photo": image] : [:])
    }

    @Test("each entry of a stored timeline is read alone, as the whole read gives it")
    func eachEntryIsReadAlone() throws {
        let timelines = Self.timelines + [Self.longTimeline]
        for timeline in timelines {
            var text = timeline.storedJSON()
            for entry in timeline.entries {
                let alone = text.withUTF8 { Timeline.entryAlone(dated: entry.date.timeIntervalSinceReferenceDate,
                                                                 in: $0) }
                #expect(alone == entry, "\(entry.date)")
                #expect(try Timeline.storedEntry(dated: entry.date, in: text) == entry)
            }
            #expect(try Timeline.storedEntry(dated: Self.epoch.addingTimeInterval(1e6), in: text) == nil)
        }
    }

    @Test("texts off the stored shape give the entry the whole read gives", arguments: Self.variants.indices)
    func entryOffTheStoredShapeAgreesWithTheWholeRead(_ index: Int) throws {
        let text = Self.variants[index].text
        guard let timeline = try? Timeline(storedJSON: text) else { return }
        for entry in timeline.entries {
            #expect(try Timeline.storedEntry(dated: entry.date, in: text) == entry, "\(text)")
        }
    }

    /// Stored texts whose wanted entry (dated 0) the scan is unsure of: each is read whole, and the whole read's error
    /// names what is wrong.
    static let unsureEntries: [(text: String, error: String)] = [
        (#"{"entries":[{"content":"1","date":0,"date":0}],"policy":{"atEnd":{}}}"#,
         "entries[0].date is given more than once, not a key given once"),
        (#"{"entries":[{"content":"1","date":0,"relevance":{"score":1,"duration":1e17}}],"policy":{"atEnd":{}}}"#,
         "entries[0].relevance.duration is 1e+17, not a number of seconds from 0 to 253402300799.999"),
        (#"{"entries":[{"content":"1","date":0,"relevance":{"score":-1e39,"duration":0}}],"policy":{"atEnd":{}}}"#,
         "entries[0].relevance.score is -1e+39, not a finite number within ±3.4028235e+38"),
        (#"{"entries":[],"entries":[{"content":"1","date":0}],"policy":{"atEnd":{}}}"#,
         "entries is given more than once, not a key given once"),
        (Self.badImageText, Self.badImageError),
    ]

    static let badImageText = #"{"entries":[{"content":"1","date":0,"images":{"a":{"sha256":"x","#
        + #""contentType":"image/png","width":1,"height":1,"byteCount":1}}}],"policy":{"atEnd":{}}}"#
    static let badImageError = #"entries[0].images.a is EntryImage(sha256: "x", contentType: "image/png", "#
        + #"width: 1, height: 1, byteCount: 1), not an image as the daemon stores one"#

    @Test("an entry the scan is unsure of is read with its whole timeline, and its error names the field",
          arguments: Self.unsureEntries.indices)
    func unsureEntryIsReadWhole(_ index: Int) throws {
        let (text, message) = Self.unsureEntries[index]
        let error = try #require(throws: StoredValueError.self) {
            try Timeline.storedEntry(dated: Date(timeIntervalSinceReferenceDate: 0), in: text)
        }
        #expect(error.description == message)
    }
}
