/// The image files a view may show (`image` elements' assets), told by their first bytes, not by their names: a
/// manifest's asset is checked with it when it loads, and a host checks again before it serves the file.
public enum ImageType: String, Sendable, Hashable, CaseIterable {
    case png, jpeg, webp

    /// The largest image file accepted: a widget's picture, not a photo album.
    public static let maximumFileSize = 2 * 1024 * 1024

    /// The first bytes needed to tell the type.
    public static let signatureLength = 12

    /// The type whose signature `bytes` start with, or nil.
    public init?(signature bytes: some Collection<UInt8>) {
        let head = Array(bytes.prefix(Self.signatureLength))
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if head.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if head.count >= 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) {
            self = .webp
        } else {
            return nil
        }
    }

    /// The media type a host serves it with.
    public var mediaType: String {
        switch self {
        case .png: return "image/png"
        case .jpeg: return "image/jpeg"
        case .webp: return "image/webp"
        }
    }
}
