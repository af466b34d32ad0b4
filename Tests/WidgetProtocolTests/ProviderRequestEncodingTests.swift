import Foundation
import Testing
import WidgetProtocol
import WidgetSchedulerCore

/// The request written by hand is byte for byte what `JSONEncoder` makes of the request's `Encodable` form.
struct ProviderRequestEncodingTests {
    static func reference(_ request: ProviderRequest) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(request))
    }

    static let now = Date(timeIntervalSince1970: 1_795_343_827.25)

    static let requests: [ProviderRequest] = ProviderRequestKind.allCases.flatMap { kind in [
        ProviderRequest(request: kind, kind: "weather", widget: ProviderRequest.Widget(
            id: "w12", family: "systemSmall",
            configuration: ["location": .string("Zürich \"HB\"/Gleis 7"), "units": .string("metric"),
                            "count": .integer(3), "ratio": .number(0.75), "tags": .array([.null, .bool(true)]),
                            "nested": .object(["b": .integer(1), "a": .object([:])])]),
            parameter: "location", search: "Zü\n", context: ProviderRequest.Context(
                now: now, isPreview: false, reason: .policy, dataDirectory: "/var/lib/widget-scheduler/groups/wé")),
        ProviderRequest(request: kind, kind: "k", widget: nil, parameter: nil, search: nil,
                        context: ProviderRequest.Context(now: now.addingTimeInterval(0.75), isPreview: true)),
        ProviderRequest(request: kind, kind: "tab\tkind", widget: ProviderRequest.Widget(id: "w1", family: "f"),
                        parameter: "p", search: nil, context: ProviderRequest.Context(now: now, reason: .initial)),
    ] }

    @Test(arguments: 0..<requests.count)
    func theRequestIsWhatJSONEncoderWrites(_ index: Int) throws {
        let request = Self.requests[index]
        #expect(String(decoding: request.encoded(), as: UTF8.self)
                == String(decoding: try Self.reference(request), as: UTF8.self))
    }
}
