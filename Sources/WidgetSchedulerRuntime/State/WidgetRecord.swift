import Foundation

/// A configured widget as the state store keeps it: what it is, and the configuration it was added or configured with.
public struct WidgetRecord: Sendable, Hashable {
    /// The widget's id, unique in the store (e.g. `weather/w3`).
    public var id: String
    /// The kind (provider) the widget belongs to.
    public var kind: String
    /// The widget family (size), e.g. `systemSmall`.
    public var family: String
    /// The configuration parameters as JSON text, stored verbatim.
    public var configuration: String
    /// When the widget was added.
    public var addedAt: Date

    public init(id: String, kind: String, family: String, configuration: String, addedAt: Date) {
        self.id = id
        self.kind = kind
        self.family = family
        self.configuration = configuration
        self.addedAt = addedAt
    }
}
