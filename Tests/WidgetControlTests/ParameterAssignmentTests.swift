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
        #expect(try ParameterAssignment.parse(text) == ParameterAssignment(name: name, value: value))
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
