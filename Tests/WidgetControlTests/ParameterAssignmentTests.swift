import Testing
import WidgetControl
import WidgetProtocol

@Suite struct ParameterAssignmentTests {
    @Test(arguments: [
        ("city=Oslo", "city", JSONValue.string("Oslo")),
        ("days=3", "days", .integer(3)),
        ("ratio=-0.5", "ratio", .number(-0.5)),
        ("metric=true", "metric", .bool(true)),
        ("name=\"42\"", "name", .string("42")),
        ("tags=[\"a\",\"b\"]", "tags", .array([.string("a"), .string("b")])),
        ("zip=007", "zip", .string("007")),
        ("note=", "note", .string("")),
        ("expr=a=b", "expr", .string("a=b")),
        ("null=null", "null", .string("null")),
    ])
    func valuesAreJSONWhenTheyLookLikeItElseStrings(text: String, name: String, value: JSONValue) throws {
        let assignment = try ParameterAssignment.parse(text)
        #expect(assignment.name == name)
        #expect(assignment.value == value)
    }

    @Test(arguments: [
        ("city=Oslo", true), ("days=3", true), ("metric=true", true), ("note=", true), ("zip=007", true),
        ("name=\"42\"", false), ("tags=[\"a\"]", false), ("where={\"x\":1}", false),
    ])
    func onlyQuotedStringsArraysAndObjectsAreTakenAsTyped(text: String, isPlainText: Bool) throws {
        #expect(try ParameterAssignment.parse(text).isPlainText == isPlainText)
    }

    /// The daemon converts no value ("size": "3" is refused for an integer), so a bare VALUE is read as its
    /// parameter's type here, from the kind's types.
    @Test(arguments: [
        ("zip=007", "string", JSONValue.string("007")),
        ("name=42", "string", .string("42")),
        ("metric=true", "string", .string("true")),
        ("size=3", "integer", .integer(3)),
        ("size=007", "integer", .integer(7)),
        ("size=-2", "integer", .integer(-2)),
        ("ratio=1.5", "decimal", .number(1.5)),
        ("ratio=2", "decimal", .number(2)),
        ("enabled=yes", "boolean", .bool(true)),
        ("enabled=off", "boolean", .bool(false)),
        ("until=2026-12-24T18:00:00Z", "date", .string("2026-12-24T18:00:00Z")),
        ("link=https://example.org", "url", .string("https://example.org")),
        // What the type cannot read is sent as parsed, for the daemon to refuse naming the parameter.
        ("size=three", "integer", .string("three")),
        ("size=1.5", "integer", .number(1.5)),
        ("ratio=inf", "decimal", .string("inf")),
        ("enabled=maybe", "boolean", .string("maybe")),
        // Explicit JSON is taken as written, and enums (the manifest's options) are left to the daemon.
        ("size=\"3\"", "integer", .string("3")),
        ("unit=3", "enum", .integer(3)),
        // A parameter the kind does not declare keeps the JSON reading.
        ("other=3", "none", .integer(3)),
    ])
    func bareValuesAreReadAsTheirParametersType(text: String, type: String, value: JSONValue) throws {
        let name = try ParameterAssignment.parse(text).name
        let types = type == "none" ? [:] : [name: type]
        let typed = ParameterAssignment.typed(try ParameterAssignment.object([text]),
                                              plainTexts: ParameterAssignment.plainTexts([text]), types: types)
        #expect(typed == [name: value])
    }

    @Test(arguments: [
        ("city", ParameterAssignmentError.missingEquals("city")),
        ("=Oslo", .emptyName("=Oslo")),
        ("ci ty=Oslo", .badName("ci ty")),
    ])
    func malformedAssignmentsNameTheArgument(text: String, error: ParameterAssignmentError) {
        #expect(throws: error) { try ParameterAssignment.parse(text) }
        #expect(error.description.contains("--param"))
    }

    @Test func nameGivenTwiceIsRejected() {
        #expect(throws: ParameterAssignmentError.duplicate("city")) {
            try ParameterAssignment.object(["city=Oslo", "city=Rome"])
        }
    }
}
