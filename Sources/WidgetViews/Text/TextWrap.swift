/// Breaking text into lines of a width in terminal columns: at spaces when it can, inside a word when it must (and
/// anywhere in text without spaces, such as Chinese), with `…` ending the last line when text is left over.
enum TextWrap {
    static let ellipsis = "\u{2026}"

    /// At most `maxLines` lines of at most `width` columns.
    static func lines(_ text: String, width: Int, maxLines: Int) -> [String] {
        guard width > 0, maxLines > 0 else { return [] }
        let total = DisplayWidth.of(text)
        if total <= width { return [text] }
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return asciiLines(Array(text.utf8), width: width, maxLines: maxLines) }
        return characterLines(text, width: width, maxLines: maxLines)
    }

    /// `lines` on characters, for any text.
    static func characterLines(_ text: String, width: Int, maxLines: Int) -> [String] {
        guard width > 0, maxLines > 0 else { return [] }
        if DisplayWidth.of(text) <= width { return [text] }
        var lines: [String] = []
        var rest = Substring(text)
        while !rest.isEmpty {
            if lines.count == maxLines - 1 {
                lines.append(truncated(String(rest), width: width))
                return lines
            }
            let (line, remainder) = breakLine(rest, width: width)
            lines.append(line)
            rest = remainder
        }
        return lines
    }

    /// `lines` for ASCII text, on its bytes: a byte is a column, so no grapheme needs finding.
    static func asciiLines(_ bytes: [UInt8], width: Int, maxLines: Int) -> [String] {
        guard width > 0, maxLines > 0 else { return [] }
        if bytes.count <= width { return [String(decoding: bytes, as: UTF8.self)] }
        let space = UInt8(ascii: " ")
        var lines: [String] = []
        var start = 0
        while start < bytes.count {
            if lines.count == maxLines - 1 {
                if bytes.count - start <= width {
                    lines.append(String(decoding: bytes[start...], as: UTF8.self))
                } else {
                    var end = start + width - 1
                    while end > start && bytes[end - 1] == space { end -= 1 }
                    lines.append(String(decoding: bytes[start..<end], as: UTF8.self) + ellipsis)
                }
                return lines
            }
            if bytes.count - start <= width {
                lines.append(String(decoding: bytes[start...], as: UTF8.self))
                break
            }
            // Break at the last space that keeps the line within the width, else inside the word.
            var cut = start + width
            if bytes[cut] != space, let space = bytes[(start + 1)..<cut].lastIndex(of: space) { cut = space }
            var end = cut
            while end > start && bytes[end - 1] == space { end -= 1 }
            lines.append(String(decoding: bytes[start..<end], as: UTF8.self))
            start = cut
            while start < bytes.count && bytes[start] == space { start += 1 }
        }
        return lines
    }

    /// `text` cut to `width` columns, ending in `…` when it was longer.
    static func truncated(_ text: String, width: Int) -> String {
        guard width > 0 else { return "" }
        if DisplayWidth.of(text) <= width { return text }
        var line = ""
        var used = 0
        for character in text {
            let columns = DisplayWidth.of(character)
            if used + columns > width - 1 { break }
            line.append(character)
            used += columns
        }
        while line.last == " " { line.removeLast() }
        return line + ellipsis
    }

    /// The first line of `text` and what is left, without the spaces at the break.
    private static func breakLine(_ text: Substring, width: Int) -> (String, Substring) {
        var used = 0
        var lastSpace: Substring.Index?
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let columns = DisplayWidth.of(character)
            if used + columns > width { break }
            if character == " " { lastSpace = index }
            used += columns
            index = text.index(after: index)
        }
        if index == text.endIndex { return (String(text), "") }
        var cut = index
        if text[index] != " ", let space = lastSpace, space > text.startIndex { cut = space }
        if cut == text.startIndex { cut = text.index(after: cut) }
        var line = String(text[..<cut])
        while line.last == " " { line.removeLast() }
        var remainder = text[cut...]
        while remainder.first == " " { remainder = remainder.dropFirst() }
        return (line, remainder)
    }
}
