/// Content text made safe for a terminal or a line protocol: control characters (C0, DEL, C1), which could move a
/// terminal's cursor, change its title or end a status bar's line, become spaces; bidirectional overrides are
/// dropped, so text cannot reorder what follows it.
public enum Sanitized {
    public static func text(_ text: String) -> String {
        // Only these bytes start a control character (C0, DEL, C1 as C2 80-9F) or a bidirectional control (E2 80 AA-AE,
        // E2 81 A6-A9): text without them, nearly all of it, is returned as it is.
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 }),
              text.unicodeScalars.contains(where: needsWork)
        else { return text }
        var output = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                output.append(" ")
            } else if !isBidiOverride(scalar) {
                output.append(scalar)
            }
        }
        return String(output)
    }

    private static func needsWork(_ scalar: Unicode.Scalar) -> Bool {
        isControl(scalar) || isBidiOverride(scalar)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    private static func isBidiOverride(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }
}
