/// Options that belong to every command and may also be written before it (`widgetctl --socket P status`):
/// swift-argument-parser reads a command's options only after the command's name, so these are moved there.
public enum LeadingOptions {
    /// The options every command takes that carry a value, with their value as the next argument or after `=`.
    public static let valued: Set<String> = ["--socket"]

    /// `arguments` (without the program name) with the leading options in `valued` moved to the end of the command
    /// line, before a `--` that ends the options. Anything else, from the first argument that is not such an
    /// option, is left in its order; an option given without its value is left where it is, for the parser to
    /// report.
    public static func movedAfterCommand(_ arguments: [String]) -> [String] {
        var leading: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if let equals = argument.firstIndex(of: "="), valued.contains(String(argument[..<equals])) {
                leading.append(argument)
                index += 1
            } else if valued.contains(argument), index + 1 < arguments.count {
                leading += [argument, arguments[index + 1]]
                index += 2
            } else {
                break
            }
        }
        guard !leading.isEmpty, index < arguments.count else { return arguments }
        var rest = Array(arguments[index...])
        let end = rest.firstIndex(of: "--") ?? rest.endIndex
        rest.insert(contentsOf: leading, at: end)
        return rest
    }
}
