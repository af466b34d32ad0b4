import Testing
@testable import daemon_bench

/// The P1 client's byte search (`ArraySlice.offset(of:)`), which decides which `Watch` events are counted.
@Suite("Benchmark client byte search")
struct ByteSearchTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var haystack: String
        var needle: String
        var offset: Int?
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "at the start", haystack: #""event":"runFinished","x":1"#, needle: #""event""#, offset: 0),
        Case(name: "in the middle", haystack: #"{"a":1,"event":"runFinished"}"#, needle: "runFinished", offset: 16),
        Case(name: "at the very end", haystack: "abcdef", needle: "def", offset: 3),
        Case(name: "after false starts on the first byte", haystack: "aaab aab aabc", needle: "aabc", offset: 9),
        Case(name: "absent", haystack: #""event":"entryChanged""#, needle: "runFinished", offset: nil),
        Case(name: "cut off by the end", haystack: "abcde", needle: "def", offset: nil),
        Case(name: "longer than the bytes", haystack: "ab", needle: "abc", offset: nil),
        Case(name: "in empty bytes", haystack: "", needle: "a", offset: nil),
    ]

    @Test(arguments: cases)
    func findsTheFirstOccurrence(_ example: Case) {
        let bytes = ArraySlice(Array(example.haystack.utf8))
        #expect(bytes.offset(of: Array(example.needle.utf8)) == example.offset)
        #expect(bytes.holds(Array(example.needle.utf8)) == (example.offset != nil))
    }

    @Test func offsetsCountFromTheSlicesOwnStart() {
        let bytes = Array("xxxxabcabc".utf8)
        let slice = bytes[5...]
        // "bcabc": the first "abc" begins 2 bytes into the slice (index 7 of the array).
        #expect(slice.offset(of: Array("abc".utf8)) == 2)
        #expect(slice.offset(of: Array("xa".utf8)) == nil)
    }

    @Test func aDateIsReadFromAnEvent() {
        let event = ArraySlice(Array(#"{"parameters":{"event":"runFinished","date":"2026-01-05T08:00:01.5Z"}}"#.utf8))
        #expect(ControlMeasurements.eventDate(event) == 1_767_600_001.5)
        #expect(ControlMeasurements.eventDate(ArraySlice(Array(#"{"date":"2026"#.utf8))) == nil)
    }
}
