import Testing
import WidgetSchedulerRuntime

/// When a turn's changes are written: after a quiet spell at the next idle moment, during a burst at most once per
/// interval, and never later than the interval plus the idle wait. The instants are binary fractions (interval 1/8 s,
/// idle wait 1/16 s), so they add up exactly.
struct WritePacerTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var lastWrite: Double?
        var changeSeen: Double?
        var now: Double
        var expected: WritePacer.Action
        var testDescription: String {
            "last write \(lastWrite.map { "\($0)" } ?? "never"), change at \(changeSeen.map { "\($0)" } ?? "none"), "
                + "now \(now)"
        }
    }

    /// A pacer that wrote at `lastWrite` and has seen a change at `changeSeen` (at the end of that turn).
    static func pacer(lastWrite: Double?, changeSeen: Double?) -> WritePacer {
        var pacer = WritePacer(minimumInterval: 0.125, maximumDelay: 0.0625)
        if let lastWrite { pacer.wrote(at: lastWrite, remaining: false) }
        if let changeSeen { _ = pacer.endOfTurn(at: changeSeen, hasUnwrittenChanges: true) }
        return pacer
    }

    @Test("the end of a turn with changes waiting writes, waits for idle, or waits out the interval", arguments: [
        // A first change ever, or after a quiet spell: the next idle moment.
        Row(lastWrite: nil, changeSeen: nil, now: 5, expected: .writeWhenIdle),
        Row(lastWrite: 1, changeSeen: nil, now: 5, expected: .writeWhenIdle),
        // No idle moment came: written once the idle wait is over.
        Row(lastWrite: 1, changeSeen: 5, now: 5.03125, expected: .writeWhenIdle),
        Row(lastWrite: 1, changeSeen: 5, now: 5.0625, expected: .write),
        // A change soon after a write waits for the interval to end...
        Row(lastWrite: 5, changeSeen: nil, now: 5.0078125, expected: .wait(until: 5.125)),
        Row(lastWrite: 5, changeSeen: 5.0078125, now: 5.1171875, expected: .wait(until: 5.125)),
        // ...then for an idle moment, at most the idle wait counted from the interval's end.
        Row(lastWrite: 5, changeSeen: 5.0078125, now: 5.125, expected: .writeWhenIdle),
        Row(lastWrite: 5, changeSeen: 5.0078125, now: 5.15625, expected: .writeWhenIdle),
        Row(lastWrite: 5, changeSeen: 5.0078125, now: 5.1875, expected: .write),
    ])
    func endOfTurn(_ row: Row) {
        var pacer = Self.pacer(lastWrite: row.lastWrite, changeSeen: row.changeSeen)
        #expect(pacer.endOfTurn(at: row.now, hasUnwrittenChanges: true) == row.expected)
    }

    @Test func aTurnWithoutChangesDoesNothingAndForgetsTheOldestChange() {
        var pacer = Self.pacer(lastWrite: 1, changeSeen: 5)
        #expect(pacer.endOfTurn(at: 5.03125, hasUnwrittenChanges: false) == .nothing)
        #expect(pacer.unwrittenSince == nil)
        // A change written by someone else (a reply's flush) does not count against the next one's idle wait.
        #expect(pacer.endOfTurn(at: 5.25, hasUnwrittenChanges: true) == .writeWhenIdle)
    }

    @Test func aBurstOfTurnsIsWrittenOncePerIntervalPlusIdleWait() {
        var pacer = Self.pacer(lastWrite: nil, changeSeen: nil)
        var writes: [Double] = []
        // A turn with new changes every 1/1024 s for one second, and never an idle moment.
        for step in 0..<1_024 {
            let now = Double(step) / 1_024
            if pacer.endOfTurn(at: now, hasUnwrittenChanges: true) == .write {
                pacer.wrote(at: now, remaining: false)
                writes.append(now)
            }
        }
        #expect(writes == [0.0625, 0.25, 0.4375, 0.625, 0.8125])
    }

    @Test func aFailedWriteIsRetriedAfterTheIntervalWithItsChangeStillCounted() {
        var pacer = Self.pacer(lastWrite: nil, changeSeen: 5)
        pacer.wrote(at: 5.0625, remaining: true)
        #expect(pacer.unwrittenSince == 5)
        #expect(pacer.endOfTurn(at: 5.078125, hasUnwrittenChanges: true) == .wait(until: 5.1875))
        #expect(pacer.endOfTurn(at: 5.1875, hasUnwrittenChanges: true) == .writeWhenIdle)
        #expect(pacer.endOfTurn(at: 5.25, hasUnwrittenChanges: true) == .write)
    }

    @Test func aClientWaitingForItsCommitHasTheTurnWrittenAtOnce() {
        var pacer = Self.pacer(lastWrite: 5, changeSeen: nil)
        #expect(pacer.endOfTurn(at: 5.0078125, hasUnwrittenChanges: true) == .wait(until: 5.125))
        #expect(pacer.endOfTurn(at: 5.015625, hasUnwrittenChanges: true, repliesWaiting: true) == .write)
        #expect(pacer.endOfTurn(at: 5.015625, hasUnwrittenChanges: false, repliesWaiting: true) == .nothing)
    }

    @Test func whileWritesFailTheBackoffSetsTheNextAttemptNotTheInterval() {
        var pacer = Self.pacer(lastWrite: nil, changeSeen: 5)
        pacer.wrote(at: 5.0625, remaining: true)
        #expect(pacer.endOfTurn(at: 5.25, hasUnwrittenChanges: true, retryAt: 7) == .wait(until: 7))
        #expect(pacer.endOfTurn(at: 7, hasUnwrittenChanges: true, retryAt: 7) == .write)
        #expect(pacer.endOfTurn(at: 7, hasUnwrittenChanges: false, retryAt: 7) == .nothing)
    }
}
