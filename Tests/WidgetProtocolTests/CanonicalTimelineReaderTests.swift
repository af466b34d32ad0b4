import Foundation
import Testing
@testable import WidgetProtocol
import WidgetSchedulerCore
import WidgetSchedulerCoreTestKit

/// The decoder's fast path: it reads the usual answers itself, gives exactly what the full decoder gives, and leaves
/// every other answer to it.
@Suite("Canonical timeline reader")
struct CanonicalTimelineReaderTests {
    static func fast(_ text: String, maxEntries: Int = 1000) -> Timeline? {
        Array(text.utf8).withUnsafeBufferPointer { CanonicalTimelineReader.timeline(from: $0, maxEntries: maxEntries) }
    }

    static func full(_ text: String, maxEntries: Int = 1000) -> Result<Timeline, ProviderAnswerError> {
        ProviderAnswerDecoder.parsedTimeline(from: Array(text.utf8), maxEntries: maxEntries)
    }

    static let usualAnswers: [String] = [
        #"{"entries":[{"date":"2026-01-05T08:00:00Z","content":{"text":"hello"}}],"policy":"atEnd"}"# + "\n",
        #"{"policy":"never","entries":[{"content":"now","date":"2026-01-05T08:00:00.250+01:00"}]}"#,
        """
        {
          "entries": [
            {"date": "2026-01-05T08:00:00Z", "content": {"city":"Paris","tags":["a","b"],"temp":-3,"x":null}},
            {"date": "2026-01-05T09:00:00Z", "content": [1,0,true,false,{},[]]}
          ],
          "policy": {"after": "2026-01-05T10:00:00Z"}
        }
        """,
        #"{"entries":[{"date":"2026-01-05T08:00:00Z","content":123456789012345}],"policy":"atEnd"}"#,
        #"{"entries":[{"date":"2026-01-05T08:00:00Z","content":{"A":1,"B":2,"a":3,"ab":4,"b":5}}],"policy":"atEnd"}"#,
    ]

    @Test(arguments: usualAnswers)
    func aUsualAnswerIsReadByTheFastPathAsTheFullDecoderReadsIt(_ answer: String) throws {
        let fast = try #require(Self.fast(answer))
        #expect(fast == (try Self.full(answer).get()))
        #expect((try ProviderAnswerDecoder.timeline(from: Array(answer.utf8)).get()) == fast)
    }

    /// An answer whose one entry, dated `date`, has `fields` after its date; `extra` follows the policy.
    static func oneEntry(_ fields: String, date: String = "2026-01-05T08:00:00Z", policy: String = #""atEnd""#,
                         extra: String = "") -> String {
        #"{"entries":[{"date":"\#(date)",\#(fields)}],"policy":\#(policy)\#(extra)}"#
    }

    static let twoEntries = #"{"date":"2026-01-05T09:00:00Z","content":1},{"date":"2026-01-05T08:00:00Z","content":2}"#
    static let sameDate = #"{"date":"2026-01-05T08:00:00Z","content":1},{"date":"2026-01-05T08:00:00Z","content":2}"#

    static let answersLeftToTheFullDecoder: [(String, String)] = [
        ("a relevance", oneEntry(#""relevance":{"score":1},"content":1"#)),
        ("content keys out of order", oneEntry(#""content":{"b":1,"a":2}"#)),
        ("a repeated content key", oneEntry(#""content":{"a":1,"a":2}"#)),
        ("whitespace in content", oneEntry(#""content":{"a": 1}"#)),
        ("an escape in content", oneEntry(#""content":"a\nb""#)),
        ("non-ASCII content", oneEntry(#""content":"café""#)),
        ("a fraction", oneEntry(#""content":2.5"#)),
        ("an exponent", oneEntry(#""content":1e3"#)),
        ("minus zero", oneEntry(#""content":-0"#)),
        ("a leading zero", oneEntry(#""content":[01]"#)),
        ("sixteen digits", oneEntry(#""content":1234567890123456"#)),
        ("an unknown field", oneEntry(#""content":1"#, extra: #","x":1"#)),
        ("a repeated field", oneEntry(#""content":1"#, extra: #","policy":"never""#)),
        ("an unknown entry field", oneEntry(#""content":1,"x":2"#)),
        ("dates out of order", #"{"entries":[\#(twoEntries)],"policy":"atEnd"}"#),
        ("a repeated date", #"{"entries":[\#(sameDate)],"policy":"atEnd"}"#),
        ("a bad date", oneEntry(#""content":1"#, date: "2026-13-05T08:00:00Z")),
        ("no entries", #"{"entries":[],"policy":"atEnd"}"#),
        ("no content", #"{"entries":[{"date":"2026-01-05T08:00:00Z"}],"policy":"atEnd"}"#),
        ("no policy", #"{"entries":[{"date":"2026-01-05T08:00:00Z","content":1}]}"#),
        ("an unknown policy", oneEntry(#""content":1"#, policy: #""sometimes""#)),
        ("text after the answer", oneEntry(#""content":1"#) + " x"),
        ("a truncated answer", #"{"entries":[{"date":"2026-01-05T08:00:00Z","content":{"a":1"#),
        ("not an object", #"[1,2]"#),
        ("nothing", "\n"),
        ("content nested past the limit",
         oneEntry(#""content":"# + String(repeating: "[", count: 70) + String(repeating: "]", count: 70))),
    ]

    @Test(arguments: answersLeftToTheFullDecoder)
    func anUnusualAnswerIsLeftToTheFullDecoder(_ name: String, _ answer: String) {
        #expect(Self.fast(answer) == nil, "\(name)")
        // The decoder's answer is the full decoder's, success or error alike.
        #expect(ProviderAnswerDecoder.timeline(from: Array(answer.utf8)) == Self.full(answer), "\(name)")
    }

    @Test func moreEntriesThanTheLimitAreLeftToTheFullDecoder() {
        let entries = (0..<3).map { #"{"date":"2026-01-05T08:00:0\#($0)Z","content":\#($0)}"# }
        let answer = #"{"entries":[\#(entries.joined(separator: ","))],"policy":"atEnd"}"#
        #expect(Self.fast(answer, maxEntries: 3) != nil)
        #expect(Self.fast(answer, maxEntries: 2) == nil)
        #expect(ProviderAnswerDecoder.timeline(from: Array(answer.utf8), maxEntries: 2)
                == Self.full(answer, maxEntries: 2))
    }

    /// Random content in stored form and in other forms: whatever the fast path reads is what the full decoder
    /// reads, and it reads every answer whose content is in stored form.
    @Test func randomContentReadsTheSameEitherWay() throws {
        var random = SeededGenerator(seed: 0x7E57_1A1E)
        for round in 0..<2000 {
            let value = Self.randomValue(depth: 0, using: &random)
            let stored = value.jsonText()
            let other = Self.restyled(stored, using: &random)
            for content in [stored, other] {
                let answer = #"{"entries":[{"date":"2026-01-05T08:00:00Z","content":\#(content)}],"policy":"atEnd"}"#
                let full = Self.full(answer)
                if let fast = Self.fast(answer) {
                    #expect(Result.success(fast) == full, "round \(round): \(answer)")
                }
            }
            if Self.isPlain(value) {
                let answer = #"{"entries":[{"date":"2026-01-05T08:00:00Z","content":\#(stored)}],"policy":"atEnd"}"#
                #expect(Self.fast(answer) != nil, "round \(round): \(answer)")
            }
        }
    }

    static func randomValue(depth: Int, using random: inout SeededGenerator) -> JSONValue {
        let choice = Int.random(in: 0..<(depth > 3 ? 6 : 8), using: &random)
        switch choice {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2: return .integer(Int64.random(in: -1_000_000...1_000_000, using: &random))
        case 3: return .number(Double(Int.random(in: -1000...1000, using: &random)) / 8)
        case 4:
            let alphabet = Array("abcAB z_-/\\\"\né".unicodeScalars)
            let length = Int.random(in: 0...6, using: &random)
            var text = ""
            for _ in 0..<length { text.unicodeScalars.append(alphabet.randomElement(using: &random)!) }
            return .string(text)
        case 5: return .integer(Int64.random(in: -9...9, using: &random))
        case 6:
            return .array((0..<Int.random(in: 0...3, using: &random)).map { _ in
                randomValue(depth: depth + 1, using: &random)
            })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0...4, using: &random) {
                let key = String((0..<Int.random(in: 1...3, using: &random)).map { _ in
                    "abAB_".randomElement(using: &random)!
                })
                members[key] = randomValue(depth: depth + 1, using: &random)
            }
            return .object(members)
        }
    }

    /// Whether `value` holds only what the fast path reads in stored form: no fraction, no string needing an escape
    /// or outside printable ASCII.
    static func isPlain(_ value: JSONValue) -> Bool {
        switch value {
        case .null, .bool, .integer: return true
        case .number(let number): return number.rounded() == number && abs(number) < 1e15
        case .string(let text): return text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }
        case .array(let items): return items.allSatisfy(isPlain)
        case .object(let members): return members.allSatisfy { isPlain(.string($0.key)) && isPlain($0.value) }
        }
    }

    /// `text` with a space added after some commas and colons outside strings, or its first two object members
    /// swapped: the same value, not in stored form.
    static func restyled(_ text: String, using random: inout SeededGenerator) -> String {
        var result = ""
        var inString = false
        var escaped = false
        for character in text {
            result.append(character)
            if inString {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" {
                    inString = false
                }
            } else if character == "\"" {
                inString = true
            } else if character == "," || character == ":", Bool.random(using: &random) {
                result.append(" ")
            }
        }
        return result
    }
}
