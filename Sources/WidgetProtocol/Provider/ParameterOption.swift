/// One choice for a parameter, from a provider's `options` answer or a manifest's fixed list.
public struct ParameterOption: Sendable, Hashable, Codable {
    /// The value stored in the configuration when this option is chosen.
    public var value: JSONValue
    /// What a user sees.
    public var title: String
    /// A second line, if any.
    public var subtitle: String?

    public init(value: JSONValue, title: String, subtitle: String? = nil) {
        self.value = value
        self.title = title
        self.subtitle = subtitle
    }
}
