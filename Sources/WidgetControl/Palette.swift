/// ANSI colour, used only when standard output is a terminal and `NO_COLOR` is unset (https://no-color.org).
public struct Palette: Sendable {
    public var enabled: Bool

    public init(enabled: Bool) {
        self.enabled = enabled
    }

    /// Colour for a terminal that is not `dumb`, unless `NO_COLOR` is set to anything non-empty.
    public static func detect(isTerminal: Bool, environment: [String: String]) -> Palette {
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        let dumb = environment["TERM"] == "dumb"
        return Palette(enabled: isTerminal && !noColor && !dumb)
    }

    private func wrap(_ code: String, _ text: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    public func bold(_ text: String) -> String { wrap("1", text) }
    public func red(_ text: String) -> String { wrap("31", text) }
    public func green(_ text: String) -> String { wrap("32", text) }
    public func yellow(_ text: String) -> String { wrap("33", text) }
    public func dim(_ text: String) -> String { wrap("2", text) }
}
