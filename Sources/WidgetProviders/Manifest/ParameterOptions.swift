import WidgetProtocol

/// Where a parameter's choices come from.
public enum ParameterOptions: Sendable, Hashable {
    /// Free input: no list of choices.
    case none
    /// The provider answers an `options` request (`options = "dynamic"`).
    case dynamic
    /// The manifest lists them. For `enum` parameters these are the only allowed values.
    case fixed([ParameterOption])
}
