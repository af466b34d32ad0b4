/// How many terminal columns text takes: wide for East Asian wide and fullwidth characters and emoji, nothing for
/// combining marks, one for the rest (what `wcwidth` says in a UTF-8 locale that is not East Asian). The boxed
/// layout needs it to keep Chinese text, emoji and symbols inside their box.
public enum DisplayWidth {
    /// The columns of `text`, with control characters counted as the single column they are drawn as (`Sanitized`
    /// replaces them first).
    public static func of(_ text: String) -> Int {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.utf8.count }
        var width = 0
        for character in text { width += of(character) }
        return width
    }

    /// The columns of one character (grapheme cluster).
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        // Latin-1, and the box drawing, block and geometric shapes the renderers draw with: one column, no lookup.
        if first.value < 0x300 || (0x2500...0x25FC).contains(first.value) {
            return scalars.count > 1 && scalars.contains(where: { $0.value == 0xFE0F }) ? 2 : 1
        }
        if scalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
        if isWide(first) { return 2 }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: return 1
        }
    }

    /// Whether a scalar takes two columns.
    public static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x1100 { return false }
        if scalar.properties.isEmojiPresentation { return true }
        for range in wideRanges where range.contains(value) { return true }
        return false
    }

    // East Asian Wide and Fullwidth blocks (Unicode's EastAsianWidth.txt, W and F, by block).
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
        0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
        0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF,
        0x1F200...0x1F2FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]
}
