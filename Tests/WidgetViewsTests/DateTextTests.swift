import Testing
@testable import WidgetViews

private let second: Int64 = 1000
private let minute: Int64 = 60_000
/// 2026-11-26T10:00:00Z.
private let date: Int64 = 1_795_687_200_000

@Suite struct DateTextTests {
    /// (milliseconds from `date` to now, the text, milliseconds from `date` to the next change).
    @Test(arguments: [
        (-42 * second - 300, "in 43 s", -42 * second),
        (-59 * second, "in 59 s", -58 * second),
        (-60 * second, "in 1 min", -59 * second),
        (-61 * second, "in 2 min", -60 * second),
        (-12 * minute - 1, "in 13 min", -12 * minute),
        (-59 * minute, "in 59 min", -58 * minute),
        (-60 * minute, "in 1 h", -59 * minute),
        (-185 * minute, "in 3 h 5 min", -184 * minute),
        (-1440 * minute, "in 1 day", -1439 * minute),
        (-3 * 1440 * minute - 5, "in 3 days", -(3 * 1440 - 1) * minute),
        (0, "now", second),
        (999, "now", second),
        (42 * second + 500, "42 s ago", 43 * second),
        (60 * second, "1 min ago", 2 * minute),
        (185 * minute, "3 h 5 min ago", 186 * minute),
        (2 * 1440 * minute, "2 days ago", 3 * 1440 * minute),
    ] as [(Int64, String, Int64)])
    func relativeTextsAndWhenTheyChange(nowOffset: Int64, text: String, nextOffset: Int64) {
        let result = DateText.relative(to: date, now: date + nowOffset)
        #expect(result.text == text)
        #expect(result.next == date + nextOffset)
    }

    @Test(arguments: [
        (-300 * second, "5:00", -299 * second),
        (-299 * second - 1, "5:00", -299 * second),
        (-299 * second, "4:59", -298 * second),
        (-second, "0:01", 0),
        (0, "0:00", second),
        (3725 * second, "1:02:05", 3726 * second),
        (-(26 * 3600 + 5) * second, "26:00:05", -(26 * 3600 + 4) * second),
    ] as [(Int64, String, Int64)])
    func timerTextsCountDownThenUp(nowOffset: Int64, text: String, nextOffset: Int64) {
        let result = DateText.timer(to: date, now: date + nowOffset)
        #expect(result.text == text)
        #expect(result.next == date + nextOffset)
    }

    /// At the moment a text is told to change it does change, and a millisecond before it does not: so a host that
    /// sleeps until `next` redraws exactly once per visible change.
    @Test(arguments: Array(stride(from: Int64(-90_000_000), through: 90_000_000, by: 2_999_999)))
    func aTextChangesExactlyAtItsNextMoment(nowOffset: Int64) {
        let now = date + nowOffset
        for evaluate in [DateText.relative, DateText.timer] {
            let current = evaluate(date, now)
            #expect(current.next > now)
            #expect(evaluate(date, current.next - 1).text == current.text)
            #expect(evaluate(date, current.next).text != current.text)
        }
    }

    @Test func clocksTickAtTheNextSecondOrMinute() {
        #expect(DateText.nextTick(after: date + 1500, seconds: true) == date + 2000)
        #expect(DateText.nextTick(after: date + 1500, seconds: false) == date + minute)
        #expect(DateText.nextTick(after: date, seconds: false) == date + minute)
        #expect(DateText.nextMidnight(after: date, offsetSeconds: 3600) == date + 13 * 60 * minute)
    }

    @Test func timesAndDaysAreWrittenInTheirOffset() {
        #expect(DateText.time(date, offsetSeconds: 0, seconds: false) == "10:00")
        #expect(DateText.time(date + 9 * second, offsetSeconds: 9 * 3600, seconds: true) == "19:00:09")
        #expect(DateText.day(date, now: date, offsetSeconds: 0) == "Thu 26 Nov")
        #expect(DateText.day(date + 40 * 1440 * minute, now: date, offsetSeconds: 0) == "Tue 5 Jan 2027")
        #expect(DateText.dayAndTime(date - 11 * 60 * minute, now: date, offsetSeconds: 0) == "Wed 25 Nov 23:00")
        // 1969 and 1600: negative seconds and the Gregorian 400-year cycle.
        #expect(DateText.day(-1000, now: date, offsetSeconds: 0) == "Wed 31 Dec 1969")
        #expect(DateText.day(-11_676_096_000_000, now: date, offsetSeconds: 0) == "Sat 1 Jan 1600")
    }

    @Test func datesOutOfRangeAreRefusedNotTrapped() {
        #expect(DateText.milliseconds(.distantFuture) != nil)
        #expect(DateText.milliseconds(Date(timeIntervalSince1970: 1e13)) == nil)
        #expect(DateText.milliseconds(Date(timeIntervalSince1970: .infinity)) == nil)
        #expect(DateText.milliseconds(Date(timeIntervalSince1970: .nan)) == nil)
    }
}

import Foundation

@Suite struct TextWrapTests {
    /// The byte-wise wrap of ASCII text breaks exactly where the character-wise wrap does.
    @Test(arguments: [
        "The important thing is not to stop questioning.", "  leading and trailing  ", "averyveryverylongwordindeed ok",
        "a b c d e f g h i j k l m n o p", "word  word   word    word", "x", "",
        "Somewhere, something incredible is waiting to be known.",
    ])
    func asciiWrappingAgreesWithCharacterWrapping(text: String) {
        for width in 1...24 {
            for maxLines in 1...4 {
                #expect(TextWrap.asciiLines(Array(text.utf8), width: width, maxLines: maxLines)
                    == TextWrap.characterLines(text, width: width, maxLines: maxLines),
                    "\"\(text)\" width \(width), \(maxLines) lines")
            }
        }
    }
}
