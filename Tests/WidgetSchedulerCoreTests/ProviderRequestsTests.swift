import Testing
import WidgetSchedulerCore

@Suite struct ProviderRequestsTests {
    static let city = ProviderRequestKey(kind: "weather", question: #"options city "par""#)
    static let other = ProviderRequestKey(kind: "weather", question: #"options city "lon""#)

    /// One step of a table: a request at `t` by `uid` with a slot free or not, and what it must get.
    struct Step: Sendable, CustomTestStringConvertible {
        var t: Double
        var key: ProviderRequestKey
        var uid: UInt32?
        var slotFree: Bool
        var admission: ProviderRequests.Admission
        var testDescription: String { "\(t) \(key) uid \(uid.map(String.init) ?? "-") → \(admission)" }
    }

    @Test(arguments: [
        // A fresh key starts when a slot is free, waits when none is; the same key then joins, for any uid.
        [Step(t: 0, key: city, uid: 1000, slotFree: true, admission: .start),
         Step(t: 0, key: city, uid: 1000, slotFree: true, admission: .joined),
         Step(t: 0, key: city, uid: 2000, slotFree: false, admission: .joined),
         Step(t: 0, key: other, uid: 1000, slotFree: false, admission: .queued),
         Step(t: 0, key: other, uid: 3000, slotFree: true, admission: .joined)],
        // Three a minute: the fourth distinct question in a row waits 20 s for a token; a trusted caller does not.
        [Step(t: 0, key: ProviderRequestKey(kind: "k", question: "1"), uid: 1000, slotFree: true, admission: .start),
         Step(t: 0, key: ProviderRequestKey(kind: "k", question: "2"), uid: 1000, slotFree: true, admission: .start),
         Step(t: 0, key: ProviderRequestKey(kind: "k", question: "3"), uid: 1000, slotFree: false, admission: .queued),
         Step(t: 0, key: ProviderRequestKey(kind: "k", question: "4"), uid: 1000, slotFree: true,
              admission: .refused(retryAfter: 20)),
         Step(t: 0, key: ProviderRequestKey(kind: "k", question: "4"), uid: 2000, slotFree: true, admission: .start),
         Step(t: 0, key: ProviderRequestKey(kind: "k", question: "5"), uid: nil, slotFree: true, admission: .start),
         Step(t: 15, key: ProviderRequestKey(kind: "k", question: "6"), uid: 1000, slotFree: true,
              admission: .refused(retryAfter: 5)),
         Step(t: 20, key: ProviderRequestKey(kind: "k", question: "6"), uid: 1000, slotFree: true, admission: .start),
         Step(t: 20, key: ProviderRequestKey(kind: "k", question: "7"), uid: 1000, slotFree: true,
              admission: .refused(retryAfter: 20))],
    ] as [[Step]])
    func admitsByKeySlotAndRate(steps: [Step]) {
        var requests = ProviderRequests()
        for step in steps {
            let admission = requests.admit(step.key, uid: step.uid, slotFree: step.slotFree, at: step.t, perMinute: 3)
            #expect(admission == step.admission, "\(step.testDescription)")
        }
    }

    @Test(arguments: [(1, 1), (2, 1), (3, 1), (4, 2), (5, 2), (8, 4)])
    func callersHoldHalfTheSlotsAndAtLeastOne(maxConcurrentRuns: Int, limit: Int) {
        #expect(ProviderRequests.slotLimit(ofConcurrentRuns: maxConcurrentRuns) == limit)
        var requests = ProviderRequests()
        for question in 0..<(limit + 1) {
            _ = requests.admit(ProviderRequestKey(kind: "k", question: "\(question)"), uid: nil,
                               slotFree: question < limit, at: 0, perMinute: 60)
        }
        #expect(requests.runningCount == limit)
        #expect(!requests.mayStartNext(ofConcurrentRuns: maxConcurrentRuns), "the limit is reached")
        requests.finished(ProviderRequestKey(kind: "k", question: "0"))
        #expect(requests.mayStartNext(ofConcurrentRuns: maxConcurrentRuns), "one ended and one waits")
    }

    @Test func aRefusedRequestSpendsNothing() {
        var requests = ProviderRequests()
        for question in 0..<60 {
            _ = requests.admit(ProviderRequestKey(kind: "k", question: "\(question)"), uid: 7, slotFree: true, at: 0,
                               perMinute: 60)
        }
        let again = ProviderRequestKey(kind: "k", question: "again")
        for _ in 0..<100 {
            #expect(requests.admit(again, uid: 7, slotFree: true, at: 0.5, perMinute: 60) == .refused(retryAfter: 0.5))
        }
        // One token a second, however often it was refused meanwhile.
        #expect(requests.admit(again, uid: 7, slotFree: true, at: 1, perMinute: 60) == .start)
    }

    @Test func queuedRequestsStartOldestFirstAndFinishedOnesFreeTheirSlot() {
        var requests = ProviderRequests()
        #expect(requests.admit(Self.city, uid: nil, slotFree: false, at: 0, perMinute: 3) == .queued)
        #expect(requests.admit(Self.other, uid: nil, slotFree: false, at: 0, perMinute: 3) == .queued)
        #expect(requests.runningCount == 0)
        #expect(requests.startNext() == Self.city)
        #expect(requests.runningCount == 1)
        #expect(requests.admit(Self.city, uid: nil, slotFree: true, at: 0, perMinute: 3) == .joined)
        requests.finished(Self.city)
        #expect(requests.runningCount == 0)
        #expect(requests.startNext() == Self.other)
        #expect(requests.startNext() == nil)
        // Once its run ended, the same question is asked again.
        #expect(requests.admit(Self.city, uid: nil, slotFree: true, at: 0, perMinute: 3) == .start)
    }

    @Test func aUidThatAskedLongAgoHasItsWholeRateAgain() {
        var requests = ProviderRequests()
        for uid in 0..<1_000 as Range<UInt32> {
            _ = requests.admit(ProviderRequestKey(kind: "k", question: "\(uid)"), uid: uid, slotFree: true,
                               at: Double(uid), perMinute: 60)
            requests.finished(ProviderRequestKey(kind: "k", question: "\(uid)"))
        }
        // A uid seen long ago has its bucket full again: asking is as if it had never asked.
        for _ in 0..<60 {
            let key = ProviderRequestKey(kind: "k", question: "again \(requests.runningCount)")
            #expect(requests.admit(key, uid: 0, slotFree: true, at: 2_000, perMinute: 60) == .start)
        }
    }
}
