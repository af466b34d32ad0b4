import Foundation
import Testing
import WidgetProtocol
import WidgetSchedulerCore

/// Replies that write their own JSON must write exactly what `VarlinkCoding.encode` writes.
struct JSONObjectEncodableTests {
    @Test(arguments: [
        "w1", "", "quote\"and\\backslash", "tab\tnew\nline\r", "bell\u{07}nul\u{00}esc\u{1B}\u{1F}",
        "back\u{08}feed\u{0C}", "slash/and/ü/日本/🙂", "\u{7F}del",
    ])
    func theReloadReplyIsByteForByteWhatVarlinkCodingWrites(widget: String) throws {
        let now = Date(timeIntervalSince1970: 1_795_343_827.074)
        let reply = ReloadMethod.Reply(decisions: [
            ReloadDecision(widget: widget, decision: .ran, at: now),
            ReloadDecision(widget: widget, decision: .coalesced, at: now.addingTimeInterval(300)),
            ReloadDecision(widget: "w2", decision: .deferred, at: now.addingTimeInterval(300), because: .floor),
            ReloadDecision(widget: "w3", decision: .deferred, at: now.addingTimeInterval(1_200.5), because: .budget),
            ReloadDecision(widget: "w4", decision: .deferred, at: now.addingTimeInterval(30), because: .backoff),
            ReloadDecision(widget: "w5", decision: .deferred, at: now, because: .concurrency),
        ])
        let fast = String(decoding: reply.encodedJSONObject(), as: UTF8.self)
        let reference = String(decoding: try VarlinkCoding.encode(reply), as: UTF8.self)
        #expect(fast == reference)
    }

    /// A kind's reply goes through `JSONByteCursor` in memory bounded up front: every combination of `because` and
    /// `decision`, dates sharing a second or not, on the whole millisecond or not, of five-digit and negative years
    /// (not cached), and ids whose every byte is escaped (the bound's worst case).
    @Test func aLargeReloadReplyIsByteForByteWhatVarlinkCodingWrites() throws {
        let start = Date(timeIntervalSince1970: 1_795_343_827)
        let becauses: [DeferralReason?] = [nil, .floor, .budget, .backoff, .concurrency]
        let verdicts: [ReloadDecision.Verdict] = [.ran, .coalesced, .deferred]
        var decisions: [ReloadDecision] = []
        for index in 0..<3_000 {
            let at: Date
            switch index % 7 {
            case 0: at = start.addingTimeInterval(Double(index / 7))
            case 1: at = Date(timeIntervalSince1970: 253_402_300_800 + Double(index))
            case 2: at = Date(timeIntervalSince1970: -62_198_755_200 - Double(index))
            default: at = start.addingTimeInterval(Double(index / 500) + Double(index % 1000) / 1000)
            }
            let widget = index % 11 == 0 ? String(repeating: "\u{01}\"\\", count: index % 5 + 1) : "w\(index)"
            decisions.append(ReloadDecision(widget: widget, decision: verdicts[index % 3], at: at,
                                            because: becauses[index % 5]))
        }
        let reply = ReloadMethod.Reply(decisions: decisions)
        let fast = String(decoding: reply.encodedJSONObject(), as: UTF8.self)
        let reference = String(decoding: try VarlinkCoding.encode(reply), as: UTF8.self)
        #expect(fast == reference)
    }

    @Test(arguments: awkwardValues)
    func everyWatchEventIsByteForByteWhatVarlinkCodingWrites(content: JSONValue) throws {
        let now = Date(timeIntervalSince1970: 1_795_343_827.074)
        let events: [WatchEvent] = [
            .entryChanged(widget: "w1", kind: "weather", date: now, content: content),
            .runFinished(widget: "w\"2", kind: "k\n", date: now, reason: "policy", outcome: "success"),
            .runFinished(widget: "w3", kind: "clock", date: now.addingTimeInterval(0.5), reason: "explicit",
                         outcome: "timeout", detail: "no answer in 10 s: \"ü\""),
            .decided(kind: "weather", date: now, decision: ReloadDecision(widget: "w4", decision: .ran, at: now)),
            .decided(kind: "weather", date: now, decision: ReloadDecision(
                widget: "w5", decision: .deferred, at: now.addingTimeInterval(300), because: .floor)),
            WatchEvent(event: .decision, widget: "", kind: "", date: now, content: content, reason: "r",
                       outcome: "o", detail: "d", decision: .coalesced, at: now, because: "budget"),
            // Each optional key before `date` first in its turn, so each is written with and without a comma.
            WatchEvent(event: .decision, widget: "w6", kind: "k", date: now, because: "floor"),
            WatchEvent(event: .entryChanged, widget: "w7", kind: "k", date: now, content: content, because: "b"),
            WatchEvent(event: .decision, widget: "w8", kind: "k", date: now, content: content, at: now),
            .entryChanged(widget: "w9", kind: "photo", date: now, content: content, images: Self.images),
            .entryChanged(widget: "w10", kind: "photo", date: now, content: content, images: [:]),
        ]
        for event in events {
            let fast = String(decoding: event.encodedJSONObject(), as: UTF8.self)
            let reference = String(decoding: try VarlinkCoding.encode(event), as: UTF8.self)
            #expect(fast == reference)
        }
    }

    @Test(arguments: awkwardValues)
    func anEntryChangeWithDecodedContentTextIsTheSameEventAsWithItsValue(content: JSONValue) throws {
        let now = Date(timeIntervalSince1970: 1_795_343_827.074)
        // The text as the daemon holds it: a provider's answer with this content, through the decoder.
        let answer = #"{"entries":[{"date":"2026-01-05T08:00:00Z","content":"# + content.jsonText()
            + #"}],"policy":"never"}"#
        let text = try ProviderAnswerDecoder.timeline(from: Array(answer.utf8)).get().entries[0].content
        let parsed = WatchEvent.entryChanged(widget: "w1", kind: "weather", date: now,
                                             content: try #require(JSONValue(jsonText: text)))
        let byText = WatchEvent.entryChanged(widget: "w1", kind: "weather", date: now, canonicalContent: text)
        let written = String(decoding: byText.encodedJSONObject(), as: UTF8.self)
        // On the wire what the parsed value gives, and what `VarlinkCoding` writes, byte for byte.
        #expect(written == String(decoding: parsed.encodedJSONObject(), as: UTF8.self))
        #expect(written == String(decoding: try VarlinkCoding.encode(byText), as: UTF8.self))
        #expect(written.contains("\"content\":\(text),"))
        // Equal, and hashed alike, to the event holding the value the text parses to.
        #expect(byText.content == parsed.content)
        #expect(byText == parsed)
        #expect(byText.hashValue == parsed.hashValue)
        let decoded = try VarlinkCoding.decode(WatchEvent.self, from: JSONValue(jsonText: written)?.objectValue)
        // A null content reads back as no content, whichever way the event held it.
        #expect(decoded.content ?? .null == byText.content)
        #expect(decoded.encodedJSONObject() == parsed.encodedJSONObject() || parsed.content == .null)
    }

    @Test func contentTextIsSentAsItIsNeverParsed() {
        // Text the decoder would never leave (spaces, unsorted keys) shows which way the content went.
        let event = WatchEvent.entryChanged(widget: "w1", kind: "k", date: Date(timeIntervalSince1970: 0),
                                            canonicalContent: #"{"b": 1, "a": [2]}"#)
        let written = String(decoding: event.encodedJSONObject(), as: UTF8.self)
        #expect(written.hasPrefix(#"{"content":{"b": 1, "a": [2]},"date":"#))
        #expect(event.content == .object(["a": .array([.integer(2)]), "b": .integer(1)]))
    }

    @Test(arguments: awkwardValues + [.number(.nan), .array([.number(.infinity)]), .object(["x": .number(-.infinity)])])
    func jsonTextIsWhatJSONEncoderWritesWithSortedKeys(value: JSONValue) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let reference = (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
        #expect(value.jsonText() == reference)
    }

    @Test func anEmptyReloadReplyIsAnObjectWithAnEmptyList() throws {
        let reply = ReloadMethod.Reply(decisions: [])
        #expect(reply.encodedJSONObject() == (try VarlinkCoding.encode(reply)))
    }

    @Test func aReloadReplyNamesTheKindItWasAskedFor() throws {
        let reply = ReloadMethod.Reply(decisions: [], kind: "weather")
        #expect(String(decoding: reply.encodedJSONObject(), as: UTF8.self) == #"{"decisions":[],"kind":"weather"}"#)
        #expect(reply.encodedJSONObject() == (try VarlinkCoding.encode(reply)))
    }

    /// Images as an entry carries them: names that sort in different orders as bytes and as characters.
    static let images: [String: EntryImage] = [
        "cat.jpg": EntryImage(sha256: String(repeating: "ab", count: 32), contentType: "image/jpeg", width: 640,
                              height: 480, byteCount: 51_234),
        "Ä \"q\".png": EntryImage(sha256: String(repeating: "0f", count: 32), contentType: "image/png", width: 1,
                                  height: 2048, byteCount: 2 << 20),
        "B.webp": EntryImage(sha256: String(repeating: "9", count: 64), contentType: "image/webp", width: 2048,
                             height: 1, byteCount: 26),
    ]

    @Test func theImageReplyIsByteForByteWhatVarlinkCodingWrites() throws {
        let data = Data((0..<3_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }).base64EncodedString()
        let image = EntryImage(sha256: String(repeating: "0f", count: 32), contentType: "image/png", width: 2048,
                               height: 1, byteCount: 3_000)
        let reply = ImageMethod.Reply(image: image, data: data)
        #expect(reply.encodedJSONObject() == (try VarlinkCoding.encode(reply)))
        let decoded = try VarlinkCoding.decode(ImageMethod.Reply.self,
                                               from: JSONValue(jsonText: String(decoding: reply.encodedJSONObject(),
                                                                                as: UTF8.self))?.objectValue)
        #expect(decoded == reply)
    }

    @Test func anEntryWithImagesReadsBackAsItWasWritten() throws {
        let now = Date(timeIntervalSince1970: 1_795_343_827)
        let reply = TimelineMethod.Reply(
            widget: "w1", kind: "photo", family: "systemSmall", policy: TimelineMethod.Policy(policy: "never"),
            entries: [TimelineMethod.Entry(date: now, content: .object(["photo": .string("cat.jpg")]), current: true,
                                           images: Self.images),
                      TimelineMethod.Entry(date: now.addingTimeInterval(60), content: .null, current: false)])
        let text = String(decoding: try VarlinkCoding.encode(reply), as: UTF8.self)
        #expect(text.contains(#""images":{"B.webp":{"byteCount":26,"contentType":"image/webp","height":1,"#))
        // An entry without images has no `images` key at all, as before images existed.
        #expect(text.components(separatedBy: #""images""#).count == 2)
        let decoded = try VarlinkCoding.decode(TimelineMethod.Reply.self, from: JSONValue(jsonText: text)?.objectValue)
        #expect(decoded == reply)
    }

    static let awkwardValues: [JSONValue] = [
        .null, .bool(true), .bool(false), .integer(0), .integer(-42), .integer(Int64.max), .integer(Int64.min),
        .number(0.1), .number(-0.0), .number(12), .number(7.5), .number(1e20), .number(1e-7), .number(123456789.125),
        .number(11.583333333333334), .number(-3.25e300), .string(""), .string("quote\" back\\ tab\t ü 🙂 /"),
        .array([]), .array([.integer(1), .string("two"), .null, .array([.bool(true)])]),
        .object([:]),
        .object(["b": .integer(1), "a": .object(["z": .null, "y": .number(2.5)]), "A": .string("upper"),
                 "a10": .integer(10), "a9": .integer(9), "_x": .bool(false), "é": .string("accent"), "": .null]),
    ]

    @Test func theListReplyIsByteForByteWhatVarlinkCodingWrites() throws {
        let now = Date(timeIntervalSince1970: 1_795_343_827.074)
        var widgets: [WidgetSummary] = []
        for (index, value) in Self.awkwardValues.enumerated() {
            widgets.append(WidgetSummary(
                id: "w\(index)", kind: "weather \"\(index)\"", family: "systemSmall",
                configuration: ["location": .string("Paris"), "value": value, "Units": .integer(Int64(index))],
                state: index % 2 == 0 ? "idle" : "pending", lastReload: index % 3 == 0 ? nil : now,
                lastReason: index % 3 == 0 ? nil : "policy", lastOutcome: index % 4 == 0 ? nil : "success",
                nextReload: index % 2 == 0 ? nil : now.addingTimeInterval(Double(index) * 61.5),
                nextReason: index % 2 == 0 ? nil : "explicit", tokens: [12, 11.5, 0, 3.141, 0.01][index % 5],
                currentEntry: index % 5 == 0 ? nil : WidgetSummary.CurrentEntry(
                    date: now.addingTimeInterval(-Double(index)), content: value,
                    images: [nil, Self.images, [:]][index % 3])))
        }
        for widgets in [widgets, []] {
            let reply = ListMethod.Reply(widgets: widgets)
            let fast = String(decoding: reply.encodedJSONObject(), as: UTF8.self)
            let reference = String(decoding: try VarlinkCoding.encode(reply), as: UTF8.self)
            #expect(fast == reference)
        }
    }

    @Test func datesWrittenInARowAreEachTheirOwnRFC3339TextWhateverSecondTheyShare() throws {
        let base = Date(timeIntervalSince1970: 1_795_343_827)
        let offsets: [Double] = [0, 0.074, 0.0745, 0.999, 0.9996, 1, 1.5, 0.25, -0.001, -1, 86_400, 0.5]
        var dates = offsets.map { base.addingTimeInterval($0) }
        // Before 1970, far past and future (held within the supported dates, as `VarlinkCoding` holds them), and
        // back again.
        dates += [Date(timeIntervalSince1970: -1.5), Date(timeIntervalSince1970: -1.25), Date.distantPast,
                  Date(timeIntervalSince1970: 300_000_000_000), Date(timeIntervalSince1970: 1e300),
                  Date(timeIntervalSince1970: .nan), base, base.addingTimeInterval(0.002)]
        var output = JSONBytesWriter()
        for date in dates { output.date(date) }
        let expected = dates.map { "\"\(RFC3339.string(from: SupportedRange.clamped($0)))\"" }.joined()
        #expect(String(decoding: output.bytes, as: UTF8.self) == expected)
    }

    @Test func integersAreWrittenAsStringWritesThemFromTheLeastToTheGreatest() {
        let values: [Int64] = [0, 1, -1, 9, 10, -10, 99, 100, 1_234_567_890, -987_654_321, .max, .min, .max - 1,
                               .min + 1]
        for value in values {
            var output = JSONBytesWriter()
            output.value(.integer(value))
            #expect(String(decoding: output.bytes, as: UTF8.self) == String(value))
        }
    }
}
