import WidgetViews

/// Escaping for text and attribute values in the host's pages: everything a provider or the daemon says reaches a
/// page only through here, so it is text, never markup.
public enum HTML {
    /// `text` with `& < > " '` replaced by entities, safe both between tags and inside a quoted attribute: the
    /// escaping WidgetViews' renderer uses for the faces.
    public static func escape(_ text: String) -> String {
        MarkupText.escaped(text)
    }

    /// Whether a URL may be opened by a tap: an absolute URL whose scheme is none that views refuse (`javascript`,
    /// `data`, `file`...: schemes that would run or read something in the page's name rather than open an app).
    public static func isTappable(_ url: String) -> Bool {
        guard let colon = url.firstIndex(of: ":"), colon != url.startIndex else { return false }
        let scheme = url[..<colon].lowercased().unicodeScalars
        let letters = "abcdefghijklmnopqrstuvwxyz".unicodeScalars
        let schemeCharacters = "abcdefghijklmnopqrstuvwxyz0123456789+-.".unicodeScalars
        guard let first = scheme.first, letters.contains(first), scheme.allSatisfy(schemeCharacters.contains)
        else { return false }
        return !URLTemplate.refusedSchemes.contains(String(scheme))
            && !url.unicodeScalars.contains { $0.value < 0x21 || $0.value == 0x7f }
    }
}
