import Foundation
import Testing
import WidgetProtocol

/// Replies that write their own JSON must write exactly what `VarlinkCoding.encode` writes.
struct JSONObjectEncodableTests {
    @Test(arguments: [
        "w1", "", "quote\"and\\backslash", "tab\tnew\nline\r", "bell\u{07}nul\u{00}esc\u{1B}\u{1F}",
        "back\u{08}feed\u{0C}", "slash/and/ü/日本/🙂", "\u{7F}del",
    ])
    func theReloadReplyIsByteForByteWhatVarlinkCodingWrites(widget: String) throws {
        let now = Date(timeIntervalSince1970: 1_795_343_827.074)
        let reply = ReloadMethod.Reply(decisions: [
            ReloadDecision(widget: widget, decision: .ran, at: now),
            ReloadDecision(widget: widget, decision: .coalesced, at: now.addingTimeInterval(300)),
            ReloadDecision(widget: "w2", decision: .deferred, at: now.addingTimeInterval(300), because: .floor),
            ReloadDecision(widget: "w3", decision: .deferred, at: now.addingTimeInterval(1_200.5), because: .budget),
            ReloadDecision(widget: "w4", decision: .deferred, at: now.addingTimeInterval(30), because: .backoff),
            ReloadDecision(widget: "w5", decision: .deferred, at: now, because: .concurrency),
        ])
        let fast = String(decoding: reply.encodedJSONObject(), as: UTF8.self)
        let reference = String(decoding: try VarlinkCoding.encode(reply), as: UTF8.self)
        #expect(fast == reference)
    }

    @Test func anEmptyReloadReplyIsAnObjectWithAnEmptyList() throws {
        let reply = ReloadMethod.Reply(decisions: [])
        #expect(reply.encodedJSONObject() == (try VarlinkCoding.encode(reply)))
    }
}
