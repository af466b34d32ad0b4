extension JSONValue {
    /// A short rendering for error messages: the JSON text, cut to 60 characters.
    ///
    /// `"tomorrow"`, `-5`, `{"a":1}`; long values end with `…`.
    public var summary: String {
        let text = jsonText()
        guard text.count > 60 else { return text }
        return String(text.prefix(59)) + "…"
    }
}
