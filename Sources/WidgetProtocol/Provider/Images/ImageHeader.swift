/// What an image's first bytes say: its format (PNG, JPEG or WebP, whatever its file name) and its dimensions.
///
/// `read(_:)` is outside data's first stop (a provider wrote the bytes): it looks only at the header, never decodes
/// pixels, and every loop advances by at least one byte, so it ends within the input's length. Dimensions come from
/// at most 32 bits of the input and are held in `Int`, so no arithmetic on them can overflow.
public struct ImageHeader: Sendable, Hashable {
    /// The formats a provider may give: rasters a browser shows and nothing that can carry script (no SVG).
    public enum Format: String, Sendable, Hashable, CaseIterable {
        case png, jpeg, webp

        /// The media type hosts serve it with.
        public var contentType: String {
            switch self {
            case .png: "image/png"
            case .jpeg: "image/jpeg"
            case .webp: "image/webp"
            }
        }

        /// Its name in messages: `PNG`, `JPEG`, `WebP`.
        public var displayName: String {
            switch self {
            case .png: "PNG"
            case .jpeg: "JPEG"
            case .webp: "WebP"
            }
        }
    }

    public var format: Format
    public var width: Int
    public var height: Int

    public init(format: Format, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }

    /// Why bytes are not an image the daemon takes: each says what the file is, for a message that names it.
    public enum Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// Not one of the formats; `seems` names what it looks like, when it is recognisable (SVG, GIF…).
        case unknownFormat(seems: String?)
        /// The header of `format` ends before its dimensions.
        case truncated(Format)
        /// The header of `format` is inconsistent: `detail` says how.
        case malformed(Format, String)

        public var description: String {
            switch self {
            case .unknownFormat(let seems?): "is \(seems), not a PNG, JPEG or WebP image"
            case .unknownFormat(nil): "is not a PNG, JPEG or WebP image"
            case .truncated(let format): "is a truncated \(format.displayName): its header ends before its size"
            case .malformed(let format, let detail): "is not a valid \(format.displayName): \(detail)"
            }
        }
    }

    /// Reads the format and dimensions from `bytes`, or says why it cannot.
    public static func read(_ bytes: [UInt8]) -> Result<ImageHeader, Problem> {
        let reader = ByteReader(bytes)
        if reader.starts(with: pngSignature) { return png(reader) }
        if reader.starts(with: [0xFF, 0xD8]) { return jpeg(reader) }
        if reader.starts(with: Array("RIFF".utf8)), reader.matches(Array("WEBP".utf8), at: 8) { return webp(reader) }
        return .failure(.unknownFormat(seems: recognised(bytes)))
    }

    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// PNG: the signature, then the first chunk, which must be IHDR (13 bytes: width and height, 31 bits each).
    private static func png(_ reader: ByteReader) -> Result<ImageHeader, Problem> {
        guard let length = reader.bigEndian32(at: 8), reader.count >= 16 else { return .failure(.truncated(.png)) }
        guard reader.matches(Array("IHDR".utf8), at: 12) else {
            return .failure(.malformed(.png, "its first chunk is not IHDR"))
        }
        guard length == 13 else { return .failure(.malformed(.png, "its IHDR chunk says \(length) bytes, not 13")) }
        guard let width = reader.bigEndian32(at: 16), let height = reader.bigEndian32(at: 20),
              reader.count >= 8 + 8 + 13 + 4 else { return .failure(.truncated(.png)) }
        guard width <= Int(Int32.max), height <= Int(Int32.max) else {
            return .failure(.malformed(.png, "its size \(width)×\(height) is past PNG's 2³¹−1"))
        }
        return sized(.png, width, height)
    }

    /// JPEG: segments after SOI, each skipped by its length, until a start-of-frame (SOF0–SOF15 but DHT, JPG and
    /// DAC) gives the size. Scan data, or the image's end, before one is a malformed file.
    private static func jpeg(_ reader: ByteReader) -> Result<ImageHeader, Problem> {
        var offset = 2
        while offset < reader.count {
            guard reader[offset] == 0xFF else {
                return .failure(.malformed(.jpeg, "no segment marker at byte \(offset)"))
            }
            // Fill bytes: any number of 0xFF before the marker.
            var markerOffset = offset + 1
            while markerOffset < reader.count, reader[markerOffset] == 0xFF { markerOffset += 1 }
            guard markerOffset < reader.count else { break }
            let marker = reader[markerOffset]
            offset = markerOffset + 1
            switch marker {
            case 0x01, 0xD0...0xD7:
                // Standalone markers: no length follows.
                continue
            case 0xD8:
                return .failure(.malformed(.jpeg, "a second start of image at byte \(markerOffset - 1)"))
            case 0xD9:
                return .failure(.malformed(.jpeg, "it ends before any frame header"))
            case 0xDA:
                return .failure(.malformed(.jpeg, "its scan data comes before any frame header"))
            case 0x00:
                return .failure(.malformed(.jpeg, "no segment marker at byte \(markerOffset - 1)"))
            default:
                break
            }
            guard let length = reader.bigEndian16(at: offset) else { return .failure(.truncated(.jpeg)) }
            guard length >= 2 else {
                return .failure(.malformed(.jpeg, "a segment at byte \(markerOffset - 1) says \(length) bytes"))
            }
            if isStartOfFrame(marker) {
                guard length >= 8 else {
                    return .failure(.malformed(.jpeg, "its frame header says \(length) bytes, fewer than 8"))
                }
                // Length, precision, then height and width.
                guard let height = reader.bigEndian16(at: offset + 3), let width = reader.bigEndian16(at: offset + 5)
                else { return .failure(.truncated(.jpeg)) }
                return sized(.jpeg, width, height)
            }
            // `length` counts its own two bytes; a length past the end is a truncated file.
            guard offset + length <= reader.count else { return .failure(.truncated(.jpeg)) }
            offset += length
        }
        return .failure(.truncated(.jpeg))
    }

    private static func isStartOfFrame(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }

    /// WebP: a RIFF container whose first chunk is VP8 (lossy), VP8L (lossless) or VP8X (extended, with the canvas
    /// size).
    private static func webp(_ reader: ByteReader) -> Result<ImageHeader, Problem> {
        guard let riffSize = reader.littleEndian32(at: 4), let chunkSize = reader.littleEndian32(at: 16),
              reader.count >= 20 else { return .failure(.truncated(.webp)) }
        guard riffSize >= 12 else { return .failure(.malformed(.webp, "its RIFF size is \(riffSize) bytes")) }
        guard 8 + riffSize <= reader.count else {
            return .failure(.malformed(.webp, "its RIFF size says \(riffSize) bytes, more than the file has"))
        }
        guard 20 + chunkSize <= 8 + riffSize else {
            return .failure(.malformed(.webp, "its first chunk says \(chunkSize) bytes, past the RIFF's end"))
        }
        if reader.matches(Array("VP8 ".utf8), at: 12) {
            guard chunkSize >= 10, let tag = reader.byte(at: 20), reader.count >= 30 else {
                return .failure(.truncated(.webp))
            }
            guard tag & 1 == 0 else { return .failure(.malformed(.webp, "its first VP8 frame is not a key frame")) }
            guard reader.matches([0x9D, 0x01, 0x2A], at: 23) else {
                return .failure(.malformed(.webp, "its VP8 frame has no start code"))
            }
            guard let width = reader.littleEndian16(at: 26), let height = reader.littleEndian16(at: 28) else {
                return .failure(.truncated(.webp))
            }
            return sized(.webp, width & 0x3FFF, height & 0x3FFF)
        }
        if reader.matches(Array("VP8L".utf8), at: 12) {
            guard chunkSize >= 5, reader.count >= 25 else { return .failure(.truncated(.webp)) }
            guard reader[20] == 0x2F else { return .failure(.malformed(.webp, "its VP8L signature is missing")) }
            let b0 = Int(reader[21]), b1 = Int(reader[22]), b2 = Int(reader[23]), b3 = Int(reader[24])
            let width = 1 + (b0 | (b1 & 0x3F) << 8)
            let height = 1 + (b1 >> 6 | b2 << 2 | (b3 & 0x0F) << 10)
            return sized(.webp, width, height)
        }
        if reader.matches(Array("VP8X".utf8), at: 12) {
            guard chunkSize >= 10, let width = reader.littleEndian24(at: 24),
                  let height = reader.littleEndian24(at: 27) else { return .failure(.truncated(.webp)) }
            return sized(.webp, width + 1, height + 1)
        }
        return .failure(.malformed(.webp, "its first chunk is not VP8, VP8L or VP8X"))
    }

    private static func sized(_ format: Format, _ width: Int, _ height: Int) -> Result<ImageHeader, Problem> {
        guard width > 0, height > 0 else {
            return .failure(.malformed(format, "its size is \(width)×\(height)"))
        }
        return .success(ImageHeader(format: format, width: width, height: height))
    }

    /// What bytes that are no image look like, for the message: markup (SVG above all, which can carry script), or
    /// another image format a provider might have meant.
    private static func recognised(_ bytes: [UInt8]) -> String? {
        let reader = ByteReader(bytes)
        if reader.starts(with: Array("GIF8".utf8)) { return "a GIF" }
        if reader.starts(with: Array("BM".utf8)) { return "a BMP" }
        if reader.matches(Array("ftyp".utf8), at: 4) { return "an ISO media file (AVIF, HEIC or MP4)" }
        // Markup after any byte-order mark and white space: SVG says so in its first kilobyte.
        var start = reader.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        guard start < bytes.count, bytes[start] == UInt8(ascii: "<") else { return nil }
        let head = String(decoding: bytes[start..<min(bytes.count, start + 1024)], as: UTF8.self).lowercased()
        return head.contains("<svg") ? "SVG (which can carry script)" : "markup (HTML, XML or SVG)"
    }
}

/// Bounds-checked reads of a byte array: every read past the end is nil (or, for a subscript the caller has checked,
/// inside it).
private struct ByteReader {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var count: Int { bytes.count }

    subscript(offset: Int) -> UInt8 { bytes[offset] }

    func byte(at offset: Int) -> UInt8? {
        offset >= 0 && offset < bytes.count ? bytes[offset] : nil
    }

    func starts(with prefix: [UInt8]) -> Bool {
        matches(prefix, at: 0)
    }

    func matches(_ expected: [UInt8], at offset: Int) -> Bool {
        guard offset >= 0, bytes.count - offset >= expected.count else { return false }
        for index in expected.indices where bytes[offset + index] != expected[index] { return false }
        return true
    }

    func bigEndian16(at offset: Int) -> Int? {
        guard offset >= 0, bytes.count - offset >= 2 else { return nil }
        return Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
    }

    func bigEndian32(at offset: Int) -> Int? {
        guard offset >= 0, bytes.count - offset >= 4 else { return nil }
        return Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
            | Int(bytes[offset + 3])
    }

    func littleEndian16(at offset: Int) -> Int? {
        guard offset >= 0, bytes.count - offset >= 2 else { return nil }
        return Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
    }

    func littleEndian24(at offset: Int) -> Int? {
        guard offset >= 0, bytes.count - offset >= 3 else { return nil }
        return Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16
    }

    func littleEndian32(at offset: Int) -> Int? {
        guard offset >= 0, bytes.count - offset >= 4 else { return nil }
        return Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16
            | Int(bytes[offset + 3]) << 24
    }
}
