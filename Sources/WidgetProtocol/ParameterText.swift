/// Command-line text (`--param NAME=VALUE`) read as a value of a widget parameter's type. Only the command line
/// converts: the daemon takes JSON values as they are (a string is never an integer), so `widgetctl` and
/// `run-provider` convert before the value leaves them.
public enum ParameterText {
    /// `text` as a value of the parameter type named `type`, or nil when it is not one, or the type is one this
    /// cannot judge (`enum`, whose options are the manifest's).
    ///
    /// Integers are decimal digits with an optional sign, decimals finite numbers, booleans `true`/`false` (also
    /// `yes`/`no`, `on`/`off`, `1`/`0`); strings, dates and URLs are the text itself (the daemon checks a date's or
    /// a URL's form).
    public static func value(_ text: String, type: String) -> JSONValue? {
        switch type {
        case "integer":
            return Int64(text).map(JSONValue.integer)
        case "decimal":
            guard let number = Double(text), number.isFinite else { return nil }
            return .number(number)
        case "boolean":
            switch text.lowercased() {
            case "true", "yes", "on", "1": return .bool(true)
            case "false", "no", "off", "0": return .bool(false)
            default: return nil
            }
        case "string", "date", "url":
            return .string(text)
        default:
            return nil
        }
    }
}
