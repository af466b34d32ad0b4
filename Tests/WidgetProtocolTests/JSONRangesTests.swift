import Testing
@testable import WidgetProtocol

/// Finding values in JSON text without building them: an array member's items and an object's member, whatever the
/// strings, escapes, nesting and whitespace around them; nil wherever the scan cannot be sure.
struct JSONRangesTests {
    static let itemCases: [(text: String, items: [String]?)] = [
        (#"{"entries":[1,"two",{"x":[3]},[],null]}"#, ["1", #""two""#, #"{"x":[3]}"#, "[]", "null"]),
        (#"{"a":{"entries":5},"entries":[],"b":"entries"}"#, []),
        (#" { "entries" : [ {"s":"]},\"[{"} , -2.5e3 ] } "#, [#"{"s":"]},\"[{"}"#, "-2.5e3"]),
        (#"{"entries":[[[{"deep":[[]]}]]],"policy":{}}"#, [#"[[{"deep":[[]]}]]"#]),
        (#"{"entries":5}"#, nil),
        (#"{"other":[1]}"#, nil),
        (#"{"entries":[1],"entries":[2]}"#, nil),
        (#"{"entr\u0069es":[1]}"#, nil),
        (#"[{"entries":[1]}]"#, nil),
        (#"{"entries":[1,2}"#, nil),
        (#"{"entries":[1,,2]}"#, nil),
        (#"{"entries":[1]} x"#, nil),
        (#"{"entries":["unended]}"#, nil),
        ("", nil),
    ]

    @Test("an array member's items are found as the text spells them", arguments: itemCases.indices)
    func itemsAreFound(_ index: Int) {
        let (text, expected) = Self.itemCases[index]
        let bytes = Array(text.utf8)
        let found = bytes.withUnsafeBufferPointer { buffer in
            JSONRanges.items(ofArrayMember: "entries", in: buffer)?.map {
                String(decoding: buffer[$0], as: UTF8.self)
            }
        }
        #expect(found == expected, "\(text)")
    }

    @Test("a member's value is found in an object, and parsed strictly")
    func memberIsFoundAndParsed() {
        let text = #"{"content":"{\"date\":1}","date": 800000000.25 ,"x":{"date":2}}"#
        let bytes = Array(text.utf8)
        bytes.withUnsafeBufferPointer { buffer in
            let range = JSONRanges.member("date", ofObjectIn: 0..<buffer.count, of: buffer)
            #expect(range.map { String(decoding: buffer[$0], as: UTF8.self) } == "800000000.25")
            #expect(range.flatMap { JSONRanges.value(in: $0, of: buffer) } == .number(800_000_000.25))
            #expect(JSONRanges.member("missing", ofObjectIn: 0..<buffer.count, of: buffer) == nil)
            #expect(JSONRanges.value(in: 0..<buffer.count, of: buffer) == JSONValue(jsonText: text))
        }
    }

    @Test("a duplicate key is not a value the strict parse gives")
    func strictParseRefusesADuplicateKey() {
        let bytes = Array(#"{"a":1,"a":2}"#.utf8)
        bytes.withUnsafeBufferPointer { buffer in
            #expect(JSONRanges.value(in: 0..<buffer.count, of: buffer) == nil)
            #expect(JSONRanges.member("a", ofObjectIn: 0..<buffer.count, of: buffer) == nil)
        }
    }
}
