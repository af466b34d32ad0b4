/// One choice for a parameter, as an `options` answer lists it.
public struct ParameterOption: Sendable, Hashable, Codable {
    /// Stored in the configuration when chosen.
    public var value: ParameterValue
    /// What a user sees.
    public var title: String
    /// A second line, if any.
    public var subtitle: String?

    public init(value: ParameterValue, title: String, subtitle: String? = nil) {
        self.value = value
        self.title = title
        self.subtitle = subtitle
    }
}
