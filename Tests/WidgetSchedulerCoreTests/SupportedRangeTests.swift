import Foundation
import Testing
import WidgetSchedulerCore

@Suite struct SupportedRangeTests {
    @Test("dates run from the epoch to the last millisecond of year 9999; NaN and infinities are outside",
          arguments: [
              (0.0, true), (-0.001, false), (1_767_600_000, true), (253_402_300_799.999, true),
              (253_402_300_800, false), (-62_135_596_800, false), (1e17, false), (.nan, false), (.infinity, false),
              (-.infinity, false),
          ])
    func dates(_ seconds: Double, _ supported: Bool) {
        #expect(SupportedRange.contains(date: Date(timeIntervalSince1970: seconds)) == supported)
    }

    @Test("the RFC 3339 text of the bounds parses back to them")
    func boundsAreRFC3339() {
        #expect(RFC3339.string(from: SupportedRange.earliestDate) == "1970-01-01T00:00:00Z")
        #expect(RFC3339.string(from: SupportedRange.latestDate) == "9999-12-31T23:59:59.999Z")
        #expect(RFC3339.date(from: "9999-12-31T23:59:59.999Z") == SupportedRange.latestDate)
        #expect(SupportedRange.datesDescription.hasSuffix("1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z"))
    }

    @Test("durations run from 0 to the span of the dates", arguments: [
        (0.0, true), (-1, false), (1e-9, true), (253_402_300_799.999, true), (253_402_300_800, false), (1e17, false),
        (.nan, false), (.infinity, false),
    ])
    func durations(_ seconds: Double, _ supported: Bool) {
        #expect(SupportedRange.contains(duration: seconds) == supported)
    }

    @Test("scores are finite and within a Float's range", arguments: [
        (0.0, true), (-5, true), (3.4e38, true), (-3.4e38, true), (3.5e38, false), (1e300, false), (.nan, false),
        (.infinity, false),
    ])
    func scores(_ score: Double, _ supported: Bool) {
        #expect(SupportedRange.contains(score: score) == supported)
    }

    @Test("a supported date plus a supported duration, clamped, is a supported date")
    func clampingKeepsDerivedDatesInRange() {
        let latest = SupportedRange.latestDate.addingTimeInterval(SupportedRange.longestDuration)
        #expect(SupportedRange.clamped(latest) == SupportedRange.latestDate)
        #expect(SupportedRange.clamped(Date(timeIntervalSince1970: -5)) == SupportedRange.earliestDate)
        #expect(SupportedRange.clamped(Date(timeIntervalSince1970: .nan)) == SupportedRange.latestDate)
        let inside = Date(timeIntervalSince1970: 1_767_600_000)
        #expect(SupportedRange.clamped(inside) == inside)
    }

    @Test("saturating conversions round, hold the type's range and take NaN as 0", arguments: [
        (2.5, 3), (-2.5, -3), (1e300, Int.max), (-1e300, Int.min), (Double.infinity, Int.max), (Double.nan, 0),
        (9.3e18, Int.max),
    ])
    func saturatingConversion(_ value: Double, _ expected: Int) {
        #expect(Int(saturating: value) == expected)
    }

    @Test("saturating conversions to unsigned and narrow types")
    func saturatingNarrowConversion() {
        #expect(UInt64(saturating: -1) == 0)
        #expect(UInt64(saturating: 1e30) == .max)
        #expect(Int32(saturating: 1e10) == .max)
        #expect(UInt8(saturating: 255.4) == 255)
    }
}
