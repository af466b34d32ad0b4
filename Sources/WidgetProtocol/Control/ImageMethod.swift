/// `Image`: the bytes of an image an entry refers to (its `images` map), by their SHA-256, for a host to show. Asked
/// by `widget`, the image must be one the widget's stored timeline or current entry names; asked by `kind`, one a
/// preview of the kind names (a `Snapshot` answered recently: the daemon keeps the images of each kind's latest
/// previews). Exactly one of `widget` and `kind`. Readable by whoever may call `Timeline`.
public enum ImageMethod: VarlinkMethod {
    public static let method = ControlMethod.image

    public struct Parameters: Sendable, Hashable, Codable {
        /// The widget whose entries refer to the image.
        public var widget: String?
        /// The kind whose previews refer to the image, instead of a widget.
        public var kind: String?
        /// The image's SHA-256, 64 lowercase hexadecimal digits, as the entry's `images` gives it.
        public var sha256: String

        public init(widget: String? = nil, kind: String? = nil, sha256: String) {
            self.widget = widget
            self.kind = kind
            self.sha256 = sha256
        }
    }

    public struct Reply: Sendable, Hashable, Codable, JSONObjectEncodable {
        /// The image as an entry's `images` describes it, read again from the stored bytes.
        public var image: EntryImage
        /// The stored bytes, exactly, in base64 (RFC 4648, with padding).
        public var data: String

        public init(image: EntryImage, data: String) {
            self.image = image
            self.data = data
        }

        public var jsonCapacityEstimate: Int { 256 + data.utf8.count }

        /// Byte for byte what `VarlinkCoding` writes, without `JSONEncoder` walking megabytes of base64.
        public func encodeJSONObject(into output: inout JSONBytesWriter) {
            output.raw("{\"data\":")
            output.string(data)
            output.raw(",\"image\":")
            output.value(image.jsonValue)
            output.raw("}")
        }
    }

    /// The most bytes a reply takes: the base64 of a 2 MiB image (4 × ⌈2 MiB / 3⌉) and its other members.
    public static let largestReplyBytes = 4 * ((2 << 20) + 2) / 3 + 256

    /// Whether `text` has the form of a SHA-256 as the daemon names images: 64 lowercase hexadecimal digits.
    public static func isSHA256(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
