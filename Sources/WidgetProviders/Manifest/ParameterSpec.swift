import Foundation
import WidgetProtocol
import WidgetSchedulerCore

/// One widget parameter as a manifest declares it under `[widget.parameters.NAME]`.
public struct ParameterSpec: Sendable, Hashable {
    /// The parameter's name: its key in a widget's configuration.
    public var name: String
    public var type: ParameterType
    /// A human name, from `title` (defaults to the name).
    public var title: String
    /// The manifest's default value, already validated against `type`.
    public var defaultValue: JSONValue?
    public var options: ParameterOptions

    public init(
        name: String,
        type: ParameterType,
        title: String? = nil,
        defaultValue: JSONValue? = nil,
        options: ParameterOptions = .none
    ) {
        self.name = name
        self.type = type
        self.title = title ?? name
        self.defaultValue = defaultValue
        self.options = options
    }

    /// Parses command-line text (`--param NAME=VALUE`) into a value of this parameter's type.
    ///
    /// Integers and decimals are numbers, booleans `true`/`false` (also `yes`/`no`, `on`/`off`, `1`/`0`), enums the
    /// text of one of the fixed options' values, dates RFC 3339 (stored as UTC text), URLs absolute with a scheme.
    public func parse(_ text: String) -> Result<JSONValue, ParameterError> {
        switch type {
        case .string:
            return .success(.string(text))
        case .integer, .decimal, .boolean:
            guard let value = ParameterText.value(text, type: type.rawValue) else {
                return .failure(error(found: text))
            }
            return .success(value)
        case .enum:
            guard let option = fixedOptions.first(where: { Self.commandLineText($0.value) == text }) else {
                return .failure(error(found: text))
            }
            return .success(option.value)
        case .date, .url:
            return validate(.string(text))
        }
    }

    /// Checks a JSON value against this parameter's type and returns it in canonical form (an integral decimal
    /// given as `3` stays `3`; a date is rewritten in UTC with `Z`).
    public func validate(_ value: JSONValue) -> Result<JSONValue, ParameterError> {
        switch (type, value) {
        case (.string, .string):
            return .success(value)
        case (.integer, .integer):
            return .success(value)
        case (.integer, .number(let number)) where number.rounded() == number && abs(number) < 9e15:
            return .success(.integer(Int64(number)))
        case (.decimal, .integer):
            return .success(value)
        case (.decimal, .number(let number)) where number.isFinite:
            return .success(value)
        case (.boolean, .bool):
            return .success(value)
        case (.enum, _) where fixedOptions.contains(where: { $0.value == value }):
            return .success(value)
        case (.date, .string(let text)):
            guard let date = RFC3339.date(from: text), SupportedRange.contains(date: date) else {
                return .failure(error(found: value.summary))
            }
            return .success(.string(RFC3339.string(from: date)))
        case (.url, .string(let text)):
            guard let url = URL(string: text), let scheme = url.scheme, !scheme.isEmpty, text.contains(":") else {
                return .failure(error(found: value.summary))
            }
            return .success(value)
        default:
            return .failure(error(found: value.summary))
        }
    }

    /// The fixed options, or an empty list when there are none.
    public var fixedOptions: [ParameterOption] {
        if case .fixed(let options) = options { return options }
        return []
    }

    /// How an option's value is typed on a command line: strings bare, other values as JSON.
    static func commandLineText(_ value: JSONValue) -> String {
        if case .string(let text) = value { return text }
        return value.jsonText()
    }

    private func error(found: String) -> ParameterError {
        var expected = type.expectation
        if type == .enum {
            let names = fixedOptions.map { Self.commandLineText($0.value) }.joined(separator: ", ")
            expected = "one of: \(names)"
        }
        return ParameterError(parameter: name, expected: expected, found: found)
    }
}
