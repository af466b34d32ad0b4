import Foundation

/// The input parameters each method of a Varlink interface declares, read from its description (IDL), so that the
/// daemon refuses a parameter its interface does not declare with the same text clients introspect.
public enum VarlinkMethodInputs {
    /// Each method's name, as in `method Name(…)`, with the names of its input fields.
    public static func parse(_ description: String) -> [String: Set<String>] {
        // A comment runs from `#` to the end of its line, and may name a method in passing.
        let text = description.split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in line.firstIndex(of: "#").map { line[..<$0] } ?? line }
            .joined(separator: "\n")
        var methods: [String: Set<String>] = [:]
        var rest = Substring(text)
        while let keyword = rest.range(of: "method ") {
            rest = rest[keyword.upperBound...]
            guard let open = rest.firstIndex(of: "(") else { break }
            let name = rest[..<open].trimmingCharacters(in: .whitespacesAndNewlines)
            var fields: Set<String> = []
            var field = ""
            var depth = 0
            var index = open
            // Field types may hold parentheses of their own (enums, inline structs): only depth 1 names inputs.
            scan: while index < rest.endIndex {
                let character = rest[index]
                index = rest.index(after: index)
                switch character {
                case "(":
                    depth += 1
                    if depth == 1 { continue scan }
                case ")":
                    depth -= 1
                    if depth == 0 {
                        fields.insertName(of: field)
                        break scan
                    }
                case "," where depth == 1:
                    fields.insertName(of: field)
                    field = ""
                    continue scan
                default:
                    break
                }
                if depth == 1 { field.append(character) }
            }
            methods[name] = fields
            rest = rest[index...]
        }
        return methods
    }
}

extension ControlInterface {
    /// The input parameters of each method of `io.widgetscheduler.Scheduler`, from its description.
    public static let methodInputs = VarlinkMethodInputs.parse(description)
}

extension Set<String> {
    /// Inserts the name of `field` (`name: type`), if it has one.
    fileprivate mutating func insertName(of field: String) {
        guard let colon = field.firstIndex(of: ":") else { return }
        let name = field[..<colon].trimmingCharacters(in: .whitespacesAndNewlines)
        if !name.isEmpty { insert(name) }
    }
}
