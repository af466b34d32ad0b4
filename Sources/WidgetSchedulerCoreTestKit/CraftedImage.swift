/// Crafted image headers, built byte by byte: each format's smallest header with the dimensions given.
public enum CraftedImage {
    public static func png(width: UInt32, height: UInt32, ihdrLength: UInt32 = 13, chunk: String = "IHDR") -> [UInt8] {
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + bigEndian(ihdrLength) + Array(chunk.utf8)
            + bigEndian(width) + bigEndian(height) + [8, 6, 0, 0, 0] + [0, 0, 0, 0]
    }

    /// SOI, an APP0 segment of `appLength` (16 with its 14 bytes), then SOF`sof` with the size.
    public static func jpeg(width: UInt16, height: UInt16, appLength: UInt16 = 16, sof: UInt8 = 0xC0,
                     before: [UInt8] = []) -> [UInt8] {
        let application = [0xFF, 0xE0] + bigEndian16(appLength) + Array("JFIF\0".utf8) + [1, 1, 0, 0, 1, 0, 1, 0, 0]
        let frame = [0xFF, sof, 0x00, 0x11, 8] + bigEndian16(height) + bigEndian16(width)
            + [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
        return [0xFF, 0xD8] + before + application + frame + [0xFF, 0xD9]
    }

    public static func webpLossy(width: UInt16, height: UInt16, keyFrame: Bool = true) -> [UInt8] {
        riff("VP8 ", [keyFrame ? 0x10 : 0x11, 0x02, 0x00, 0x9D, 0x01, 0x2A] + littleEndian16(width)
            + littleEndian16(height) + [0, 0])
    }

    public static func webpLossless(width: Int, height: Int) -> [UInt8] {
        let w = width - 1
        let h = height - 1
        return riff("VP8L", [0x2F, UInt8(w & 0xFF), UInt8((w >> 8) & 0x3F | (h & 0x03) << 6), UInt8((h >> 2) & 0xFF),
                             UInt8((h >> 10) & 0x0F), 0, 0, 0])
    }

    public static func webpExtended(width: Int, height: Int) -> [UInt8] {
        riff("VP8X", [0x10, 0, 0, 0] + littleEndian24(width - 1) + littleEndian24(height - 1))
    }

    public static func riff(_ fourCC: String, _ payload: [UInt8], riffSize: UInt32? = nil) -> [UInt8] {
        let chunk = Array(fourCC.utf8) + littleEndian32(UInt32(payload.count)) + payload
        return Array("RIFF".utf8) + littleEndian32(riffSize ?? UInt32(4 + chunk.count)) + Array("WEBP".utf8) + chunk
    }

    public static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    public static func bigEndian16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    public static func littleEndian16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    public static func littleEndian24(_ value: Int) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF)]
    }
    public static func littleEndian32(_ value: UInt32) -> [UInt8] { bigEndian(value).reversed() }
}

