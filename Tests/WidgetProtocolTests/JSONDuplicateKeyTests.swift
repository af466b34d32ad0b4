import Foundation
import Testing
@testable import WidgetProtocol

/// I-JSON's rule (RFC 7493 §2.3): no object has a key twice. The scan finds the first repeated key and where it is,
/// whatever the depth, the escapes or the strings around it.
struct JSONDuplicateKeyTests {
    static let cases: [(text: String, key: String?, path: String)] = [
        (#"{"a":1,"b":2}"#, nil, ""),
        (#"{"a":1,"a":2}"#, "a", ""),
        (#"{"a":{"b":1},"c":{"b":2}}"#, nil, ""),
        (#"{"a":{"b":1,"b":2}}"#, "b", "a"),
        (#"{"entries":[{"date":1},{"date":2,"content":{"x":[1,{"y":1,"y":{}}]}}]}"#, "y",
         "entries[1].content.x[1]"),
        (#"[{"a":1},{"a":1},[{"k":0,"k":0}]]"#, "k", "[2][0]"),
        (#"{"a":1,"\u0061":2}"#, "a", ""),
        (#"{"\ud83d\ude00":1,"😀":2}"#, "😀", ""),
        (#"{"é":1,"e\u0301":2}"#, "e\u{301}", ""),
        (#"{"a\"b":1,"a\"b":2}"#, "a\"b", ""),
        (#"{"s":"{\"s\":1,\"s\":2}","t":"}]","u":[]}"#, nil, ""),
        (#" { "a" : 1 , "b" : [ ] , "a" : 2 } "#, "a", ""),
        (#"{"n":-1.5e300,"t":true,"f":false,"z":null,"n":0}"#, "n", ""),
        ("\"x\"", nil, ""),
    ]

    @Test("the first repeated key is named with the path of its object", arguments: cases.indices)
    func repeatedKeyIsFound(_ index: Int) {
        let (text, key, path) = Self.cases[index]
        let found = JSONDuplicateKey.first(in: Array(text.utf8))
        #expect(found == key.map { JSONDuplicateKey(key: $0, path: path) }, "\(text)")
    }

    @Test("a repeated key deeper than the fast parser reads is found")
    func deepRepeatedKeyIsFound() {
        let depth = 300
        let text = String(repeating: #"{"a":"#, count: depth) + #"{"k":1,"k":2}"# + String(repeating: "}", count: depth)
        let found = JSONDuplicateKey.first(in: Array(text.utf8))
        #expect(found?.key == "k")
        #expect(found?.path == Array(repeating: "a", count: depth).joined(separator: "."))
        guard case .failure(.duplicateKey) = JSONValue.parse(Array(text.utf8)) else {
            Issue.record("parsed with a repeated key")
            return
        }
    }

    @Test("malformed text and random bytes end the scan without a trap")
    func malformedTextEndsTheScan() {
        for text in ["{", "{\"a", "{\"a\\", "{\"a\\u12", "[[[", "}}}", "{\"a\":1,", ":::", "{\"\\ud800\":1}"] {
            _ = JSONDuplicateKey.first(in: Array(text.utf8))
        }
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array(#"{}[]":,\u0aé "#.utf8)
        for _ in 0..<5_000 {
            let bytes = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                alphabet[Int.random(in: 0..<alphabet.count, using: &generator)]
            }
            _ = JSONDuplicateKey.first(in: bytes)
        }
    }

    @Test("JSONValue refuses a repeated key on every path: the fast parser's and JSONDecoder's")
    func jsonValueRefusesRepeatedKeys() {
        // 2^53 + 1 sends the text to JSONDecoder; the other is read by the fast parser.
        for text in [#"{"a":1,"a":2}"#, #"{"a":9007199254740993,"a":2}"#] {
            #expect(JSONValue(jsonText: text) == nil, "\(text)")
            #expect(JSONValue.parse(Array(text.utf8)) == .failure(.duplicateKey(JSONDuplicateKey(key: "a", path: ""))))
        }
        #expect(JSONValue(jsonText: #"{"a":9007199254740993,"b":2}"#) != nil)
    }

    @Test("a control message with a repeated key is an invalid message naming it")
    func controlMessageWithARepeatedKeyIsInvalid() {
        let text = #"{"method":"io.widgetscheduler.Scheduler.Reload","parameters":{"kind":"a","kind":"b"}}"#
        #expect(VarlinkRequest.parse(Array(text.utf8))
            == .failure(.invalidMessage(#"the call has the key "kind" more than once (in parameters)"#)))
        let top = #"{"method":"io.widgetscheduler.Scheduler.List","method":"io.widgetscheduler.Scheduler.Remove"}"#
        #expect(VarlinkRequest.parse(Array(top.utf8))
            == .failure(.invalidMessage(#"the call has the key "method" more than once"#)))
    }
}
