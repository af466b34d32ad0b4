import Foundation

/// A v1 request as read from stdin.
struct ProviderRequestMessage: Decodable, Sendable {
    struct Widget: Decodable, Sendable {
        var id: String?
        var family: String?
        var configuration: [String: ParameterValue]?
    }

    struct Context: Decodable, Sendable {
        var now: String?
        var isPreview: Bool?
        var reason: String?
        var dataDirectory: String?
        var imageDirectory: String?
    }

    var `protocol`: Int
    var request: String
    var kind: String
    var widget: Widget?
    var parameter: String?
    var search: String?
    var context: Context?

    /// The provider's view of the request.
    func providerContext() -> TimelineProviderContext {
        TimelineProviderContext(
            kind: kind,
            widgetID: widget?.id,
            family: WidgetFamily(rawValue: widget?.family ?? WidgetFamily.systemSmall.rawValue),
            isPreview: context?.isPreview ?? false,
            configuration: widget?.configuration ?? [:],
            dataDirectory: context?.dataDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) },
            imageDirectory: context?.imageDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) },
            reason: context?.reason,
            now: context?.now.flatMap(ProtocolDate.parse) ?? Date()
        )
    }
}
