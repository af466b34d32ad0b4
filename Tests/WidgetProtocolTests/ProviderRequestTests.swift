import Foundation
import Testing
import WidgetProtocol
import WidgetSchedulerCore

private func jsonObject(_ bytes: [UInt8]) -> JSONValue? {
    try? JSONDecoder().decode(JSONValue.self, from: Data(bytes))
}

@Test("a timeline request encodes to the v1 wire shape with an RFC 3339 UTC date")
func timelineRequestWireShape() {
    let request = ProviderRequest(
        request: .timeline,
        kind: "weather",
        widget: .init(id: "w1", family: "systemSmall", configuration: ["location": .string("Paris")]),
        parameter: "ignored outside options",
        context: .init(
            now: Date(timeIntervalSince1970: 1_767_600_000), isPreview: false, reason: .policy,
            dataDirectory: "/var/lib/widget-scheduler/groups/weather"
        )
    )
    let expected = #"""
        {"context":{"dataDirectory":"/var/lib/widget-scheduler/groups/weather","isPreview":false,\#
        "now":"2026-01-05T08:00:00Z","reason":"policy"},"kind":"weather","protocol":1,"request":"timeline",\#
        "widget":{"configuration":{"location":"Paris"},"family":"systemSmall","id":"w1"}}
        """#
    #expect(String(decoding: request.encoded(), as: UTF8.self) == expected)
    #expect(String(decoding: request.encodedLine(), as: UTF8.self) == expected + "\n")
}

@Test("an options request carries parameter and search, and may have no widget")
func optionsRequestWireShape() {
    let request = ProviderRequest(
        request: .options, kind: "weather", widget: nil, parameter: "location", search: "Par",
        context: .init(now: Date(timeIntervalSince1970: 1_767_600_000.25), isPreview: true)
    )
    #expect(jsonObject(request.encoded()) == .object([
        "protocol": .integer(1), "request": .string("options"), "kind": .string("weather"),
        "parameter": .string("location"), "search": .string("Par"),
        "context": .object(["now": .string("2026-01-05T08:00:00.250Z"), "isPreview": .bool(true)]),
    ]))
}

@Test("every request kind encodes its wire name", arguments: ProviderRequestKind.allCases)
func requestKindEncodesItsName(_ kind: ProviderRequestKind) {
    let request = ProviderRequest(
        request: kind, kind: "clock", widget: .init(id: "w", family: "systemSmall"),
        context: .init(now: Date(timeIntervalSince1970: 0))
    )
    #expect(jsonObject(request.encoded())?.objectValue?["request"] == .string(kind.rawValue))
}
