import Foundation
import Testing
import WidgetSchedulerCore

@Test("RFC 3339 forms parse to the right instant", arguments: [
    ("2026-01-05T08:00:00Z", 1_767_600_000.0),
    ("2026-01-05t08:00:00z", 1_767_600_000.0),
    ("2026-01-05T09:30:00+01:30", 1_767_600_000.0),
    ("2026-01-05T03:00:00-05:00", 1_767_600_000.0),
    ("2026-01-05T08:00:00.25Z", 1_767_600_000.25),
    ("2024-02-29T00:00:00Z", 1_709_164_800.0),
    ("1969-12-31T23:59:59Z", -1.0),
])
func rfc3339Parses(_ text: String, _ seconds: Double) {
    #expect(RFC3339.date(from: text)?.timeIntervalSince1970 == seconds)
}

@Test("text that is not RFC 3339 is rejected", arguments: [
    "tomorrow", "", "2026-01-05", "2026-01-05T08:00:00", "2026-01-05 08:00:00Z", "2026-1-05T08:00:00Z",
    "2026-01-05T08:00Z", "2026-02-30T00:00:00Z", "2025-02-29T00:00:00Z", "2026-01-05T24:00:00Z",
    "2026-01-05T08:00:00.Z", "2026-01-05T08:00:00+0100", "2026-01-05T08:00:00Z ", "1767600000",
])
func nonRFC3339IsRejected(_ text: String) {
    #expect(RFC3339.date(from: text) == nil)
}

@Test("dates format in UTC with Z, with milliseconds only when present", arguments: [
    (1_767_600_000.0, "2026-01-05T08:00:00Z"),
    (1_767_600_000.25, "2026-01-05T08:00:00.250Z"),
    (-1.0, "1969-12-31T23:59:59Z"),
    (951_782_400.0, "2000-02-29T00:00:00Z"),
    (1_795_343_827.074, "2026-11-22T10:37:07.074Z"),
    (1_795_343_827.999_6, "2026-11-22T10:37:08Z"),
    (-62_135_596_800.0, "0001-01-01T00:00:00Z"),
    (253_402_300_799.5, "9999-12-31T23:59:59.500Z"),
    (253_402_300_800.0, "10000-01-01T00:00:00Z"),
])
func rfc3339Formats(_ seconds: Double, _ text: String) {
    #expect(RFC3339.string(from: Date(timeIntervalSince1970: seconds)) == text)
}

@Test func everyFormattedDateParsesBackToTheSameMillisecond() {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<2_000 {
        let milliseconds = Double(Int64.random(in: -2_000_000_000_000...4_000_000_000_000, using: &generator))
        let date = Date(timeIntervalSince1970: milliseconds / 1000)
        let text = RFC3339.string(from: date)
        #expect(RFC3339.date(from: text)?.timeIntervalSince1970 == date.timeIntervalSince1970, "\(text)")
    }
}

@Test("the UTF-8 parser decides as the String one does", arguments: [
    "2026-01-05T08:00:00Z", "2026-01-05t08:00:00z", "2026-01-05T09:30:00+01:30", "2026-01-05T08:00:00.25Z",
    "2024-02-29T00:00:00Z", "2025-02-29T00:00:00Z", "2026-01-05T08:00:00", "2026-01-05T08:00:00Z ", "",
    "2026-01-05T08:00:00\u{FF3A}", "２026-01-05T08:00:00Z", "2026-01-05T08:00:00.Z", "2026-01-05X08:00:00Z",
])
func utf8ParserAgreesWithStringParser(_ text: String) {
    let bytes = Array(text.utf8)
    let parsed = bytes.withUnsafeBufferPointer { RFC3339.date(utf8: $0) }
    #expect(parsed == RFC3339.date(from: text))
}

@Test("any date formats without stopping the process: beyond the formatter's range it writes the nearest it holds",
      arguments: [
          (1e17, "3170843-11-07T09:46:40Z"), (1e300, "3170843-11-07T09:46:40Z"),
          (.infinity, "3170843-11-07T09:46:40Z"), (-1e300, "-3166904-02-24T14:13:20Z"),
          (-.infinity, "-3166904-02-24T14:13:20Z"), (.nan, "1970-01-01T00:00:00Z"),
      ])
func anyDateFormats(_ seconds: Double, _ text: String) {
    let date = Date(timeIntervalSince1970: seconds)
    #expect(RFC3339.string(from: date) == text)
    var bytes: [UInt8] = []
    RFC3339.append(date, to: &bytes)
    #expect(String(decoding: bytes, as: UTF8.self) == text)
}
