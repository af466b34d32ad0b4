/// The rule for an asset's name inside a provider's asset folder: a relative path of plain names, with a PNG, JPEG or
/// WebP extension. No `..`, no absolute path, no hidden file: a name can only reach inside the folder, and the loader
/// checks that the file there is no symlink out of it. (SVG is refused: it can carry script.)
public enum AssetName {
    /// The extensions accepted, lowercase.
    public static let extensions: Set<String> = ["png", "jpg", "jpeg", "webp"]
    /// The longest name accepted, in bytes.
    public static let maximumLength = 255

    /// Nil when `name` is a valid asset name, else what is wrong with it.
    public static func problem(_ name: String) -> String? {
        guard !name.isEmpty, name.utf8.count <= maximumLength else {
            return "expected a file name of 1 to \(maximumLength) bytes"
        }
        let components = name.split(separator: "/", omittingEmptySubsequences: false)
        for component in components {
            guard !component.isEmpty, !component.hasPrefix("."),
                  component.utf8.allSatisfy(isNameByte)
            else {
                return "expected a path inside the asset folder made of names of [A-Za-z0-9._-] (no \"..\", no "
                    + "leading \"/\" or \".\"), found \"\(name)\""
            }
        }
        let last = components.last ?? ""
        guard let dot = last.lastIndex(of: "."), extensions.contains(last[last.index(after: dot)...].lowercased())
        else {
            return "expected a PNG, JPEG or WebP file (.png, .jpg, .jpeg, .webp), found \"\(name)\""
        }
        return nil
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }
}
