/// Text made safe inside markup: `&`, `<`, `>`, `"` and `'` as character references, so it can stand in an element's
/// text or a quoted attribute of HTML, and in Pango's markup (a status bar's labels) alike.
public enum MarkupText {
    /// `text` with the five characters escaped.
    public static func escaped(_ text: String) -> String {
        var output = ""
        append(text, to: &output)
        return output
    }

    /// Appends `text` to `output` with the five characters escaped.
    public static func append(_ text: String, to output: inout String) {
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 })
        else {
            output += text
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&#39;"
            default: output.unicodeScalars.append(scalar)
            }
        }
    }
}
