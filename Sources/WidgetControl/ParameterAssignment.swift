import WidgetProtocol

/// One `--param NAME=VALUE` from the command line.
///
/// VALUE is read as JSON when it is a JSON number, boolean, array, object or quoted string (`days=3`,
/// `metric=true`, `name="42"`), and as a plain string otherwise (`city=Oslo`). The daemon checks it against the
/// manifest's parameter type.
public struct ParameterAssignment: Sendable, Hashable {
    public var name: String
    public var value: JSONValue

    public init(name: String, value: JSONValue) {
        self.name = name
        self.value = value
    }

    /// Parses `NAME=VALUE`, or says what is wrong with it.
    public static func parse(_ text: String) throws(ParameterAssignmentError) -> ParameterAssignment {
        guard let equals = text.firstIndex(of: "=") else { throw .missingEquals(text) }
        let name = String(text[..<equals])
        guard !name.isEmpty else { throw .emptyName(text) }
        guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }) else {
            throw .badName(name)
        }
        let raw = String(text[text.index(after: equals)...])
        return ParameterAssignment(name: name, value: value(raw))
    }

    /// Parses every assignment into one object; a name given twice is an error.
    public static func object(_ texts: [String]) throws(ParameterAssignmentError) -> [String: JSONValue] {
        var object: [String: JSONValue] = [:]
        for text in texts {
            let assignment = try parse(text)
            guard object[assignment.name] == nil else { throw .duplicate(assignment.name) }
            object[assignment.name] = assignment.value
        }
        return object
    }

    private static func value(_ raw: String) -> JSONValue {
        guard let first = raw.first else { return .string("") }
        let looksLikeJSON = first == "\"" || first == "[" || first == "{" || first == "-" || first.isNumber
            || raw == "true" || raw == "false"
        if looksLikeJSON, let json = JSONValue(jsonText: raw) { return json }
        return .string(raw)
    }
}

/// What is wrong with a `--param` argument, in words that name it.
public enum ParameterAssignmentError: Error, Sendable, Hashable, CustomStringConvertible {
    case missingEquals(String)
    case emptyName(String)
    case badName(String)
    case duplicate(String)

    public var description: String {
        switch self {
        case .missingEquals(let text): return "--param \"\(text)\" must be NAME=VALUE"
        case .emptyName(let text): return "--param \"\(text)\" has no name before '='"
        case .badName(let name):
            return "--param name \"\(name)\" may hold only letters, digits, '-', '_' and '.'"
        case .duplicate(let name): return "--param \(name) is given more than once"
        }
    }
}
