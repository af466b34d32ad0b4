import Foundation
import Testing
import WidgetSchedulerCore
@testable import WidgetSchedulerRuntime

/// The compact blobs the daemon reads for every widget at start: exact round trips, earlier JSON still read, and a
/// damaged blob an error that names the byte, never a crash.
struct CompactEncodingTests {
    static let epoch = Date(timeIntervalSinceReferenceDate: 800_000_000.25)

    static var fullSchedule: PersistedWidgetState {
        var schedule = WidgetSchedule(id: "w12", kind: "wéather", budget: RefreshBudget(tokens: 2.5, stamp: 17.125))
        schedule.lastRunStart = 99.5
        schedule.consecutiveFailures = 3
        schedule.backoffUntil = 1_234.75
        schedule.quarantined = true
        schedule.inFlight = WidgetSchedule.RunInFlight(reason: .explicit, startedAt: 100)
        schedule.pending = PendingRun(reason: .policy, due: .wall(epoch), alreadyPaid: true)
        schedule.currentEntry = TimelineOutline.Entry(date: epoch, relevance: TimelineEntryRelevance(score: 4,
                                                                                                      duration: 60))
        schedule.maxRelevanceScore = 9
        schedule.interruptedByDaemonDeaths = 2
        return PersistedWidgetState(
            schedule: schedule,
            lastRun: PersistedWidgetState.LastRun(startedAt: epoch, reason: .retry, outcome: "timeout"),
            currentContent: #"{"text":"naïve \"quoted\""}"#)
    }

    static let outlines: [TimelineOutline] = [
        TimelineOutline(Timeline(entries: [], policy: .atEnd)),
        TimelineOutline(Timeline(entries: (0..<10).map { TimelineEntry(date: epoch.addingTimeInterval(Double($0))) },
                                 policy: .after(epoch.addingTimeInterval(86_400)))),
        TimelineOutline(Timeline(entries: [
            TimelineEntry(date: epoch, relevance: TimelineEntryRelevance(score: 1, duration: 0)),
            TimelineEntry(date: epoch.addingTimeInterval(60)),
            TimelineEntry(date: epoch.addingTimeInterval(120), relevance: TimelineEntryRelevance(score: -2,
                                                                                                 duration: 30)),
        ], policy: .never)),
    ]

    @Test func aScheduleWithEveryFieldSetRoundTripsExactly() throws {
        let state = Self.fullSchedule
        let decoded = try PersistedWidgetState(decoding: state.encoded())
        #expect(decoded.schedule == state.schedule)
        #expect(decoded.lastRun == state.lastRun)
        #expect(decoded.currentContent == state.currentContent)
    }

    @Test func aFreshScheduleRoundTripsWithItsEmptyFields() throws {
        let state = PersistedWidgetState(
            schedule: WidgetSchedule(id: "w1", kind: "k", budget: RefreshBudget(tokens: 1, stamp: 0)),
            lastRun: nil, currentContent: nil)
        let decoded = try PersistedWidgetState(decoding: state.encoded())
        #expect(decoded.schedule == state.schedule)
        #expect(decoded.lastRun == nil && decoded.currentContent == nil)
    }

    @Test func aVersionOneBlobIsReadWithNoDaemonDeaths() throws {
        var blob = [UInt8](Self.fullSchedule.encoded())
        // Version 1 is version 3 without the death count and the image count at its end (8 bytes each).
        blob[0] = 1
        blob.removeLast(16)
        let decoded = try PersistedWidgetState(decoding: Data(blob))
        var expected = Self.fullSchedule.schedule
        expected.interruptedByDaemonDeaths = 0
        #expect(decoded.schedule == expected)
        #expect(decoded.currentContent == Self.fullSchedule.currentContent)
    }

    @Test func aVersionTwoBlobIsReadWithNoCurrentImages() throws {
        var blob = [UInt8](Self.fullSchedule.encoded())
        blob[0] = 2
        blob.removeLast(8)
        let decoded = try PersistedWidgetState(decoding: Data(blob))
        #expect(decoded.schedule == Self.fullSchedule.schedule)
        #expect(decoded.currentImages.isEmpty)
    }

    @Test func theCurrentEntrysImagesRoundTripAndADamagedOneIsRefused() throws {
        var state = Self.fullSchedule
        let image = EntryImage(sha256: String(repeating: "ab", count: 32), contentType: "image/webp", width: 2048,
                               height: 1, byteCount: 2 << 20)
        state.currentImages = ["cat.webp": image, "b.png": EntryImage(sha256: String(repeating: "0", count: 64),
                                                                       contentType: "image/png", width: 1, height: 1,
                                                                       byteCount: 33)]
        #expect(try PersistedWidgetState(decoding: state.encoded()).currentImages == state.currentImages)
        state.currentImages["bad.png"] = EntryImage(sha256: "ab", contentType: "image/png", width: 1, height: 1,
                                                    byteCount: 33)
        #expect(throws: StoredValueError.self) { try PersistedWidgetState(decoding: state.encoded()) }
    }

    @Test func aScheduleSavedAsJSONByAnEarlierVersionIsStillRead() throws {
        let json = #"""
            {"lastRun":{"outcome":"success","reason":"initial","startedAt":800000000.25},
             "schedule":{"budget":{"stamp":3,"tokens":2},"consecutiveFailures":0,"id":"w7","kind":"clock",
             "lastRunStart":3,"maxRelevanceScore":0,"quarantined":false,
             "currentEntry":{"content":"{\"t\":1}","date":800000000.25}}}
            """#
        let decoded = try PersistedWidgetState(decoding: Data(json.utf8))
        #expect(decoded.schedule.id == "w7")
        #expect(decoded.schedule.budget == RefreshBudget(tokens: 2, stamp: 3))
        #expect(decoded.schedule.currentEntry == TimelineOutline.Entry(date: Self.epoch))
        #expect(decoded.currentContent == #"{"t":1}"#)
        #expect(decoded.lastRun?.reason == .initial)
    }

    @Test func aPendingRunWrittenBeforeThePaidFlagIsReadAsNotPaid() throws {
        var schedule = WidgetSchedule(id: "w3", kind: "k", budget: RefreshBudget(tokens: 1, stamp: 0))
        schedule.pending = PendingRun(reason: .policy, due: .monotonic(42), alreadyPaid: true)
        var blob = [UInt8](PersistedWidgetState(schedule: schedule, lastRun: nil, currentContent: nil).encoded())
        // The due-time tag follows the reason: 0 (monotonic) with the paid bit set is 2.
        let reason = try #require(blob.firstRange(of: Array("policy".utf8)))
        #expect(blob[reason.upperBound] == 2)
        #expect(try PersistedWidgetState(decoding: Data(blob)).schedule == schedule)
        blob[reason.upperBound] = 0
        schedule.pending?.alreadyPaid = false
        #expect(try PersistedWidgetState(decoding: Data(blob)).schedule == schedule)
        blob[reason.upperBound] = 4
        #expect(throws: CompactReader.Malformed.self) { try PersistedWidgetState(decoding: Data(blob)) }
    }

    @Test("outlines round trip exactly", arguments: 0..<3)
    func outlineRoundTrip(_ index: Int) throws {
        let outline = Self.outlines[index]
        #expect(try TimelineOutline(compact: outline.compactEncoded()) == outline)
    }

    @Test func everyTruncationOfABlobIsAnErrorNamingTheByte() {
        let blobs = [Self.fullSchedule.encoded(), Self.outlines[2].compactEncoded()]
        for (number, blob) in blobs.enumerated() {
            for length in 0..<blob.count {
                let cut = blob.prefix(length)
                #expect(throws: CompactReader.Malformed.self, "blob \(number) cut at \(length)") {
                    if number == 0 { _ = try PersistedWidgetState(decoding: cut) } else {
                        _ = try TimelineOutline(compact: cut)
                    }
                }
            }
        }
    }

    @Test func damagedValuesAreNamed() throws {
        var outline = [UInt8](Self.outlines[1].compactEncoded())
        outline[1] = 7
        let policy = try #require(throws: CompactReader.Malformed.self) {
            try TimelineOutline(compact: Data(outline))
        }
        #expect(policy.description == "unknown policy tag 7 at byte 1")
        var unsorted = [UInt8](Self.outlines[1].compactEncoded())
        let later = Self.epoch.timeIntervalSinceReferenceDate + 1e6
        unsorted.replaceSubrange(14..<22, with: withUnsafeBytes(of: later.bitPattern.littleEndian, Array.init))
        let order = try #require(throws: StoredValueError.self) { try TimelineOutline(compact: Data(unsorted)) }
        #expect(order.field == "entries[1].date")
        var far = [UInt8](Self.outlines[1].compactEncoded())
        far.replaceSubrange(14..<22, with: withUnsafeBytes(of: Double(1e12).bitPattern.littleEndian, Array.init))
        let range = try #require(throws: StoredValueError.self) { try TimelineOutline(compact: Data(far)) }
        #expect(range.field == "entries[0].date")
        var trailing = Self.fullSchedule.encoded()
        trailing.append(0)
        let extra = try #require(throws: CompactReader.Malformed.self) { try PersistedWidgetState(decoding: trailing) }
        #expect(extra.reason == "trailing bytes after the schedule")
        var reason = [UInt8](PersistedWidgetState(
            schedule: WidgetSchedule(id: "w", kind: "k", budget: RefreshBudget(tokens: 1, stamp: 0)),
            lastRun: PersistedWidgetState.LastRun(startedAt: Self.epoch, reason: .retry, outcome: nil),
            currentContent: nil).encoded())
        // "retry" is the last string but one; make it "rotry".
        let at = try #require(reason.firstRange(of: Array("retry".utf8)))
        reason[at.lowerBound + 1] = UInt8(ascii: "o")
        let unknown = try #require(throws: CompactReader.Malformed.self) {
            try PersistedWidgetState(decoding: Data(reason))
        }
        #expect(unknown.reason == #"unknown RunReason "rotry""#)
    }
}
