import Foundation
import WidgetSchedulerCore

/// The rules for images a provider writes in its run's image directory (docs/provider-protocol.md, "Images"), as
/// pure functions: which names may be images, which content strings refer to them, and whether bytes are an image
/// the daemon takes. Reading the files and storing them are the daemon's (`ImageStoring`).
public enum ImageRules {
    /// The most bytes one image may have: 2 MiB.
    public static let maximumImageBytes = 2 << 20
    /// The most pixels an image may have across and down.
    public static let maximumDimension = 2048
    /// The most bytes the distinct images of one timeline (or one preview) may have together: 16 MiB.
    public static let maximumTotalBytes = 16 << 20
    /// The longest file name, in bytes, as most Linux file systems allow.
    public static let maximumNameBytes = 255

    /// Whether `name` may be an image's file name: 1 to 255 bytes, no `/`, no NUL, not starting with `.`. A content
    /// string of another form is never a reference, whatever the directory holds.
    public static func isPlainName(_ name: String) -> Bool {
        let bytes = name.utf8
        guard let first = bytes.first, first != UInt8(ascii: "."), bytes.count <= maximumNameBytes else { return false }
        return !bytes.contains(UInt8(ascii: "/")) && !bytes.contains(0)
    }

    /// The names among `files` that `content` refers to: every JSON string, at any depth (object keys aside), equal
    /// to one of them. Sorted, each once.
    public static func references(in content: JSONValue, among files: Set<String>) -> [String] {
        guard !files.isEmpty else { return [] }
        var found = Set<String>()
        // A stack rather than recursion: content is as deep as the parser allows, and no deeper frame is needed.
        var pending = [content]
        while let value = pending.popLast() {
            switch value {
            case .string(let text):
                if files.contains(text) { found.insert(text) }
            case .array(let items):
                pending.append(contentsOf: items)
            case .object(let members):
                pending.append(contentsOf: members.values)
            case .null, .bool, .integer, .number:
                break
            }
        }
        return found.sorted()
    }

    /// `references(in:among:)` for content as JSON text (as the decoder leaves it); text that does not parse refers
    /// to nothing.
    public static func references(inContentText text: String, among files: Set<String>) -> [String] {
        guard !files.isEmpty, let content = JSONValue(jsonText: text) else { return [] }
        return references(in: content, among: files)
    }

    /// The image `bytes` are, or why the daemon refuses them, in words that follow the file's name ("is larger than
    /// 2 MiB"): at most `maximumImageBytes`, a PNG, JPEG or WebP by its header, at most `maximumDimension` each way.
    /// `bytes` may be one byte past the limit, as the reader reads no more.
    public static func check(_ bytes: [UInt8]) -> Result<ImageHeader, Refusal> {
        guard bytes.count <= maximumImageBytes else {
            return .failure(Refusal("is larger than 2 MiB (\(maximumImageBytes) bytes)"))
        }
        guard !bytes.isEmpty else { return .failure(Refusal("is empty")) }
        switch ImageHeader.read(bytes) {
        case .failure(let problem):
            return .failure(Refusal(problem.description))
        case .success(let header):
            guard header.width <= maximumDimension, header.height <= maximumDimension else {
                return .failure(Refusal("is \(header.width)×\(header.height) pixels, larger than "
                    + "\(maximumDimension)×\(maximumDimension)"))
            }
            return .success(header)
        }
    }

    /// Why bytes are refused, in words that follow the file's name.
    public struct Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        public var description: String

        public init(_ description: String) {
            self.description = description
        }
    }

    /// The message of a run failed for an image: `entry 2 (2026-01-05T08:00:00Z): image "cat.svg" is SVG …`, the
    /// entry numbered as in the answer's `entries` (nil: a snapshot's single entry).
    public static func message(entry: Int?, date: Date, name: String, problem: String) -> String {
        let entryName = entry.map { "entry \($0)" } ?? "entry"
        return "\(entryName) (\(RFC3339.string(from: date))): image \(JSONValue.string(name).jsonText()) \(problem)"
    }
}
