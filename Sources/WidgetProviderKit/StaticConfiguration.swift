import Foundation

/// A widget kind served by a provider, as WidgetKit's `StaticConfiguration` (without the SwiftUI view: hosts render
/// the entries' content).
public struct StaticConfiguration: WidgetConfiguration {
    /// The kind's name, as in the manifest.
    public let kind: String
    let answer: (ProviderRequestMessage, TimelineProviderContext) async throws -> Data

    /// Serves `kind` with `provider`.
    public init<Provider: TimelineProvider>(kind: String, provider: Provider) {
        self.kind = kind
        answer = { request, context in
            try await AnswerEncoder.answer(to: request, with: provider, in: context)
        }
    }

    /// WidgetKit's initializer; the content closure (a SwiftUI view) is not used on this platform.
    public init<Provider: TimelineProvider, Content>(
        kind: String,
        provider: Provider,
        content: @escaping (Provider.Entry) -> Content
    ) {
        self.init(kind: kind, provider: provider)
    }

    public var staticConfigurations: [StaticConfiguration] { [self] }
}

/// What a `Widget`'s body is: one or more static configurations.
public protocol WidgetConfiguration {
    var staticConfigurations: [StaticConfiguration] { get }
}

extension WidgetConfiguration {
    /// Accepted for source compatibility with WidgetKit; the manifest's `display-name` is what hosts show.
    public func configurationDisplayName(_ name: String) -> Self { self }
    /// Accepted for source compatibility with WidgetKit; the manifest's `description` is what hosts show.
    public func description(_ text: String) -> Self { self }
    /// Accepted for source compatibility with WidgetKit; the manifest's `families` are what the daemon uses.
    public func supportedFamilies(_ families: [WidgetFamily]) -> Self { self }
}
