import Foundation
import Testing
@testable import WidgetProtocol
import WidgetSchedulerCoreTestKit

/// The fast parser gives exactly what `JSONDecoder` gives, or nothing (and the caller asks `JSONDecoder`).
struct JSONFastParserTests {
    static func decoded(_ text: String) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    static let handled = [
        "null", "true", "false", "0", "-0", "3", "-42", "9223372036854775807", "-9223372036854775808", "3.0", "1e2",
        "1.0e1", "100e-2", "-0.0", "1e-400", "0.1", "1.5", "2.5e0", "-3.25E+300", "123456789.125", "11.583333333333334",
        #""""#, #""plain""#, #""é 日本 🙂""#, #""q\" b\\ s\/ \b\f\n\r\t""#, #""\u00e9\u0000\u001F\uD83D\uDE42""#,
        "[]", "{}", " [ 1 , \"two\" , null , [ true ] ] ", #"{"b":1,"a":{"z":null,"y":2.5},"":[]}"#,
        #"{"entries":[{"date":"2026-01-05T08:00:00Z","content":{"text":"hello"}}],"policy":"atEnd"}"#,
        "\t\n\r {\"k\" : -12.5e-3}\n",
    ]

    @Test(arguments: handled)
    func wellFormedJSONIsParsedAsJSONDecoderParsesIt(_ text: String) throws {
        let expected = try #require(Self.decoded(text))
        #expect(JSONFastParser.parse(text) == expected)
        #expect(JSONValue(jsonText: text) == expected)
    }

    static let leftToJSONDecoder = [
        "", " ", "nul", "tru", "01", "-", "1.", ".5", "1e", "1e+", "+1", "0x10", "1E400", "NaN", "[1,]", "[1 2]", "{,}",
        #"{"a"}"#, #"{"a":}"#, #"{"a":1,}"#, #"{a:1}"#, #""open"#, "\"tab\there\"", #""\x""#, #""\u12""#,
        #""\ud800""#, #""\udc00""#, #""\ud800\u0041""#, "[1] x", "{} {}", #"{"a":1,"a":2}"#,
        "12345678901234567890", "9007199254740993.0", "1e300",
        String(repeating: "[", count: 300) + String(repeating: "]", count: 300),
    ]

    @Test(arguments: leftToJSONDecoder)
    func doubtfulOrMalformedInputIsLeftToJSONDecoder(_ text: String) {
        let fast = JSONFastParser.parse(text)
        #expect(fast == nil || fast == Self.decoded(text), "agrees with JSONDecoder whenever it answers")
        // JSONValue is I-JSON: it refuses a repeated key, which JSONDecoder reads keeping one of the values.
        let repeated = JSONDuplicateKey.first(in: Array(text.utf8)) != nil
        #expect(JSONValue(jsonText: text) == (repeated ? nil : Self.decoded(text)))
    }

    @Test func invalidUTF8InAStringIsLeftToJSONDecoder() {
        let bytes: [UInt8] = [0x22, 0xC3, 0x28, 0x22]
        #expect(JSONFastParser.parse(bytes) == nil)
    }

    @Test func randomDocumentsAgreeWithJSONDecoder() throws {
        var generator = SeededGenerator(seed: 0x5eed)
        for _ in 0..<500 {
            let text = Self.randomJSON(depth: 0, &generator)
            let expected = try #require(Self.decoded(text), "\(text)")
            #expect(JSONFastParser.parse(text) == expected, "\(text)")
        }
    }

    static func randomJSON(depth: Int, _ generator: inout SeededGenerator) -> String {
        let pick = Int(generator.next() % (depth > 3 ? 6 : 8))
        switch pick {
        case 0: return "null"
        case 1: return generator.next() % 2 == 0 ? "true" : "false"
        case 2: return String(Int64(bitPattern: generator.next()) >> Int64(generator.next() % 64))
        case 3:
            let value = Double(Int64(bitPattern: generator.next()) % 1_000_000) / Double(1 + generator.next() % 1000)
            return ["\(value)", "\(value)e\(Int(generator.next() % 20) - 10)"][Int(generator.next() % 2)]
        case 4, 5:
            let alphabet = Array("ab é\"\\/\n\t🙂\u{01}日")
            let characters = (0..<Int(generator.next() % 8)).map { _ in alphabet[Int(generator.next() % 12)] }
            let escaped = String(characters).unicodeScalars.map { scalar -> String in
                switch scalar {
                case "\"": return "\\\""
                case "\\": return "\\\\"
                case "\n": return generator.next() % 2 == 0 ? "\\n" : "\\u000a"
                case "\t": return "\\t"
                case "\u{01}": return "\\u0001"
                case "/": return generator.next() % 2 == 0 ? "/" : "\\/"
                default: return String(scalar)
                }
            }.joined()
            return "\"\(escaped)\""
        case 6:
            let items = (0..<Int(generator.next() % 4)).map { _ in randomJSON(depth: depth + 1, &generator) }
            return "[" + items.joined(separator: ",") + "]"
        default:
            let members = (0..<Int(generator.next() % 4)).map { index in
                "\"k\(index)\": " + randomJSON(depth: depth + 1, &generator)
            }
            return "{" + members.joined(separator: " ,") + "}"
        }
    }
}
