import WidgetProtocol

/// One `--param NAME=VALUE` from the command line.
///
/// VALUE is read as JSON when it is a JSON number, boolean, array, object or quoted string (`days=3`,
/// `metric=true`, `name="42"`), and as a plain string otherwise (`city=Oslo`). Where the kind's parameter types are
/// known, an unquoted VALUE is read as its parameter's type instead (`typed`: `zip=007` is the text "007" for a
/// string, `enabled=yes` true for a boolean): the daemon checks values against the manifest's parameter type and
/// converts none, so the command line does it before the value is sent.
public struct ParameterAssignment: Sendable, Hashable {
    public var name: String
    public var value: JSONValue
    /// Whether VALUE was typed bare, so that it may be read as its parameter's type (`city=Oslo`, `days=3`,
    /// `enabled=yes`), rather than as a quoted JSON string, an array or an object (`name="42"`, `tags=["a"]`).
    public var isPlainText: Bool

    public init(name: String, value: JSONValue, isPlainText: Bool = false) {
        self.name = name
        self.value = value
        self.isPlainText = isPlainText
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
        let quoted = raw.first == "\"" || raw.first == "[" || raw.first == "{"
        return ParameterAssignment(name: name, value: value(raw), isPlainText: !quoted)
    }

    /// The assignments whose VALUE was typed bare, by name, as typed.
    public static func plainTexts(_ texts: [String]) -> [String: String] {
        var plain: [String: String] = [:]
        for text in texts {
            guard let assignment = try? parse(text), assignment.isPlainText,
                  let equals = text.firstIndex(of: "=") else { continue }
            plain[assignment.name] = String(text[text.index(after: equals)...])
        }
        return plain
    }

    /// `values` with each bare value read as the type `types` gives its parameter (`ParameterText`: `042` is the
    /// text "042" for a string, 42 for an integer; `yes` true for a boolean). A value its type cannot read, or of a
    /// parameter of no known type, is left as parsed, for the daemon to refuse with the parameter's name.
    public static func typed(
        _ values: [String: JSONValue], plainTexts: [String: String], types: [String: String]
    ) -> [String: JSONValue] {
        var typed = values
        for (name, text) in plainTexts {
            if let type = types[name], let value = ParameterText.value(text, type: type) { typed[name] = value }
        }
        return typed
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
