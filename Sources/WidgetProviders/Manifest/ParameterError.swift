import WidgetProtocol

/// A parameter value that does not fit its manifest's `ParameterSpec`.
///
/// `parameter "days": expected an integer, found "three"`
public struct ParameterError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The parameter's name.
    public var parameter: String
    /// What the parameter takes.
    public var expected: String
    /// The value given, as text (JSON for JSON values).
    public var found: String

    public init(parameter: String, expected: String, found: String) {
        self.parameter = parameter
        self.expected = expected
        self.found = found
    }

    /// The parameter and the value as a client may have sent them, so a long one is repeated only in part
    /// (`ControlError.echoed`).
    public var description: String {
        "parameter \"\(ControlError.echoed(parameter))\": expected \(expected), found \(ControlError.echoed(found))"
    }
}
