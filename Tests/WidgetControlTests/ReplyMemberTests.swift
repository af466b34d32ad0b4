import Testing
import WidgetControl

/// Cutting the widget array out of a `List` reply without parsing it, and declining anything else.
struct ReplyMemberTests {
    private func cut(_ message: String) -> String? {
        ReplyMember.array("widgets", in: Array(message.utf8)).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func theDaemonsOwnFormGivesItsArray() {
        #expect(cut(#"{"parameters":{"widgets":[{"id":"w1","tokens":12}]}}"#) == #"[{"id":"w1","tokens":12}]"#)
        #expect(cut(#"{"parameters":{"widgets":[]}}"#) == "[]")
    }

    @Test(arguments: [
        #"{"error":"io.widgetscheduler.Scheduler.PermissionDenied","parameters":{"method":"List"}}"#,
        #"{"parameters": {"widgets": []}}"#,
        #"{"parameters":{"kinds":[]}}"#,
        #"{"parameters":{"widgets":[]},"continues":true}"#,
        #"{"parameters":{"widgets":null}}"#,
        #"{"parameters":{"widgets":"#,
        "",
    ])
    func anythingElseIsLeftToTheDecoder(_ message: String) {
        #expect(cut(message) == nil)
    }
}
