import Testing
import WidgetProtocol
import WidgetProviders

private let units = ParameterSpec(
    name: "units", type: .enum,
    options: .fixed([
        ParameterOption(value: .string("metric"), title: "Metric"), ParameterOption(value: .integer(2), title: "Two"),
    ])
)

@Test("command-line text parses to a value of the parameter's type", arguments: [
    (ParameterSpec(name: "city", type: .string), "Paris", JSONValue.string("Paris")),
    (ParameterSpec(name: "days", type: .integer), "-3", .integer(-3)),
    (ParameterSpec(name: "ratio", type: .decimal), "2.5", .number(2.5)),
    (ParameterSpec(name: "metric", type: .boolean), "yes", .bool(true)),
    (ParameterSpec(name: "metric", type: .boolean), "False", .bool(false)),
    (units, "metric", .string("metric")),
    (units, "2", .integer(2)),
    (ParameterSpec(name: "until", type: .date), "2026-01-05T09:00:00+01:00", .string("2026-01-05T08:00:00Z")),
    (ParameterSpec(name: "feed", type: .url), "https://example.com/feed", .string("https://example.com/feed")),
])
func parameterTextParses(_ spec: ParameterSpec, _ text: String, _ expected: JSONValue) throws {
    #expect(try spec.parse(text).get() == expected)
}

@Test("command-line text that does not fit the type is an error naming the parameter", arguments: [
    (ParameterSpec(name: "days", type: .integer), "three", #"parameter "days": expected an integer, found three"#),
    (ParameterSpec(name: "ratio", type: .decimal), "nan", #"parameter "ratio": expected a decimal number, found nan"#),
    (ParameterSpec(name: "metric", type: .boolean), "maybe", #"parameter "metric": expected "#
        + #"true or false, found maybe"#),
    (units, "kelvin", #"parameter "units": expected one of: metric, 2, found kelvin"#),
    (
        ParameterSpec(name: "until", type: .date), "tomorrow",
        #"parameter "until": expected an RFC 3339 date from 1970 to 9999 such as 2026-01-05T08:00:00Z, "#
            + #"found "tomorrow""#
    ),
    (
        ParameterSpec(name: "until", type: .date), "1969-12-31T23:59:59Z",
        #"parameter "until": expected an RFC 3339 date from 1970 to 9999 such as 2026-01-05T08:00:00Z, "#
            + #"found "1969-12-31T23:59:59Z""#
    ),
    (
        ParameterSpec(name: "until", type: .date), "9999-12-31T23:59:59-01:00",
        #"parameter "until": expected an RFC 3339 date from 1970 to 9999 such as 2026-01-05T08:00:00Z, "#
            + #"found "9999-12-31T23:59:59-01:00""#
    ),
    (
        ParameterSpec(name: "feed", type: .url), "example.com",
        #"parameter "feed": expected an absolute URL such as https://example.com/feed, found "example.com""#
    ),
])
func parameterTextIsRejected(_ spec: ParameterSpec, _ text: String, _ message: String) {
    guard case .failure(let error) = spec.parse(text) else {
        Issue.record("accepted \(text)")
        return
    }
    #expect(error.description == message)
}

@Test("JSON values are validated against the type", arguments: [
    (ParameterSpec(name: "days", type: .integer), JSONValue.number(4), true),
    (ParameterSpec(name: "days", type: .integer), .number(4.5), false),
    (ParameterSpec(name: "days", type: .integer), .string("4"), false),
    (ParameterSpec(name: "ratio", type: .decimal), .integer(4), true),
    (ParameterSpec(name: "city", type: .string), .null, false),
    (ParameterSpec(name: "metric", type: .boolean), .integer(1), false),
    (units, .string("metric"), true),
    (units, .string("Metric"), false),
])
func parameterValuesValidate(_ spec: ParameterSpec, _ value: JSONValue, _ valid: Bool) {
    let result = spec.validate(value)
    if case .success = result { #expect(valid) } else { #expect(!valid) }
}
