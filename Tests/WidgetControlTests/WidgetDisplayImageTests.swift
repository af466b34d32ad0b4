import Foundation
import Testing
import WidgetControl
import WidgetProtocol
import WidgetSchedulerCore

/// `widgetctl show` cannot draw a provided image in a terminal: it writes the image's name and size where the picture
/// would be, from the entry's `images`.
@Suite struct WidgetDisplayImageTests {
    static let now = RFC3339.date(from: "2026-11-26T10:00:00Z") ?? Date(timeIntervalSince1970: 0)
    static let views = JSONValue(jsonText: #"""
        {"version": 1, "families": {"systemMedium": {"body": {"type": "vstack", "children": [
          {"type": "image", "value": "photo", "source": "provided", "size": "fill"},
          {"type": "text", "value": "caption"}
        ]}}}}
        """#) ?? .null
    static let photo = EntryImage(sha256: String(repeating: "0f", count: 32), contentType: "image/jpeg", width: 640,
                                  height: 480, byteCount: 40000)

    static func display(images: [String: EntryImage]?) throws -> WidgetDisplay {
        let entry = TimelineMethod.Entry(date: now, content: .object(["photo": .string("harbour.jpg"),
                                                                      "caption": .string("Harbour")]),
                                         current: true, images: images)
        let timeline = TimelineMethod.Reply(widget: "w7", kind: "photo", family: "systemMedium", policy: nil,
                                            entries: [entry])
        return try WidgetDisplay(timeline: timeline, views: .init(kind: "photo", views: views), family: nil,
                                 timeZone: TimeZone(secondsFromGMT: 0) ?? .current)
    }

    @Test func theBoxNamesTheImageAndItsSize() throws {
        let box = try Self.display(images: ["harbour.jpg": Self.photo]).box(now: Self.now, color: false)
        #expect(box.lines.contains { $0.contains("[image harbour.jpg 640\u{00D7}480]") }, "\(box.lines)")
        #expect(box.lines.contains { $0.contains("Harbour") })
        #expect(box.widget.problems.isEmpty)
    }

    @Test func anEntryWithoutTheImageIsAPlaceholderAndAProblem() throws {
        let box = try Self.display(images: nil).box(now: Self.now, color: false)
        #expect(!box.lines.contains { $0.contains("harbour.jpg") })
        #expect(box.widget.problems.map(\.description) == [#"photo: the entry has no image "harbour.jpg""#])
    }

    @Test func aNewEntryBringsItsImages() throws {
        var display = try Self.display(images: nil)
        display.entryChanged(date: Self.now, content: .object(["photo": .string("harbour.jpg")]),
                             images: ["harbour.jpg": Self.photo])
        #expect(display.box(now: Self.now, color: false).lines.contains { $0.contains("640\u{00D7}480") })
    }
}
