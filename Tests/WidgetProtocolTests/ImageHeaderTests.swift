import Foundation
import Testing
import WidgetProtocol
import WidgetSchedulerCoreTestKit

struct ImageHeaderRow: CustomTestStringConvertible, Sendable {
    let name: String
    let bytes: [UInt8]
    /// `format width height`, or the message `ImageRules.check` gives.
    let expected: String

    var testDescription: String { name }
}

private let rows: [ImageHeaderRow] = [
    .init(name: "a real PNG", bytes: ImageSamples.png, expected: "png 16 16"),
    .init(name: "a real JPEG", bytes: ImageSamples.jpeg, expected: "jpeg 16 16"),
    .init(name: "a real WebP (VP8X)", bytes: ImageSamples.webp, expected: "webp 16 16"),
    .init(name: "a crafted PNG at the limit", bytes: CraftedImage.png(width: 2048, height: 2048),
          expected: "png 2048 2048"),
    .init(name: "a PNG wider than the limit", bytes: CraftedImage.png(width: 2049, height: 1),
          expected: "is 2049×1 pixels, larger than 2048×2048"),
    .init(name: "a PNG of huge dimensions", bytes: CraftedImage.png(width: 0x7FFF_FFFF, height: 0x7FFF_FFFF),
          expected: "is 2147483647×2147483647 pixels, larger than 2048×2048"),
    .init(name: "a PNG past PNG's own limit", bytes: CraftedImage.png(width: 0xFFFF_FFFF, height: 1),
          expected: "is not a valid PNG: its size 4294967295×1 is past PNG's 2³¹−1"),
    .init(name: "a PNG of zero width", bytes: CraftedImage.png(width: 0, height: 5),
          expected: "is not a valid PNG: its size is 0×5"),
    .init(name: "a PNG whose IHDR lies about its length",
          bytes: CraftedImage.png(width: 1, height: 1, ihdrLength: 14),
          expected: "is not a valid PNG: its IHDR chunk says 14 bytes, not 13"),
    .init(name: "a PNG without IHDR first", bytes: CraftedImage.png(width: 1, height: 1, chunk: "IDAT"),
          expected: "is not a valid PNG: its first chunk is not IHDR"),
    .init(name: "a PNG cut in its IHDR", bytes: Array(ImageSamples.png.prefix(20)),
          expected: "is a truncated PNG: its header ends before its size"),
    .init(name: "a PNG signature alone", bytes: Array(ImageSamples.png.prefix(8)),
          expected: "is a truncated PNG: its header ends before its size"),
    .init(name: "a crafted JPEG", bytes: CraftedImage.jpeg(width: 640, height: 480), expected: "jpeg 640 480"),
    .init(name: "a progressive JPEG (SOF2)", bytes: CraftedImage.jpeg(width: 1, height: 2048, sof: 0xC2),
          expected: "jpeg 1 2048"),
    .init(name: "a JPEG with fill bytes and a restart marker", bytes: CraftedImage.jpeg(
        width: 3, height: 4, before: [0xFF, 0xD0, 0xFF]), expected: "jpeg 3 4"),
    .init(name: "a JPEG taller than the limit", bytes: CraftedImage.jpeg(width: 10, height: 65535),
          expected: "is 10×65535 pixels, larger than 2048×2048"),
    .init(name: "a JPEG of zero height (DNL)", bytes: CraftedImage.jpeg(width: 10, height: 0),
          expected: "is not a valid JPEG: its size is 10×0"),
    .init(name: "a JPEG segment longer than the file",
          bytes: CraftedImage.jpeg(width: 1, height: 1, appLength: 0xFFFF),
          expected: "is a truncated JPEG: its header ends before its size"),
    .init(name: "a JPEG segment of length 1", bytes: CraftedImage.jpeg(width: 1, height: 1, appLength: 1),
          expected: "is not a valid JPEG: a segment at byte 2 says 1 bytes"),
    .init(name: "a JPEG whose scan comes first", bytes: [0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02],
          expected: "is not a valid JPEG: its scan data comes before any frame header"),
    .init(name: "a JPEG that ends at once", bytes: [0xFF, 0xD8, 0xFF, 0xD9],
          expected: "is not a valid JPEG: it ends before any frame header"),
    .init(name: "a JPEG start alone", bytes: [0xFF, 0xD8],
          expected: "is a truncated JPEG: its header ends before its size"),
    .init(name: "a JPEG of fill bytes", bytes: [0xFF, 0xD8] + [UInt8](repeating: 0xFF, count: 5000),
          expected: "is a truncated JPEG: its header ends before its size"),
    .init(name: "a JPEG with garbage where a marker goes", bytes: [0xFF, 0xD8, 0x00, 0x01],
          expected: "is not a valid JPEG: no segment marker at byte 2"),
    .init(name: "a real JPEG cut short", bytes: Array(ImageSamples.jpeg.prefix(100)),
          expected: "is a truncated JPEG: its header ends before its size"),
    .init(name: "a lossy WebP", bytes: CraftedImage.webpLossy(width: 300, height: 200), expected: "webp 300 200"),
    .init(name: "a lossy WebP whose first frame is no key frame",
          bytes: CraftedImage.webpLossy(width: 300, height: 200, keyFrame: false),
          expected: "is not a valid WebP: its first VP8 frame is not a key frame"),
    .init(name: "a lossless WebP", bytes: CraftedImage.webpLossless(width: 2048, height: 1000),
          expected: "webp 2048 1000"),
    .init(name: "a lossless WebP past the limit", bytes: CraftedImage.webpLossless(width: 16384, height: 16384),
          expected: "is 16384×16384 pixels, larger than 2048×2048"),
    .init(name: "an extended WebP past the limit", bytes: CraftedImage.webpExtended(width: 1 << 24, height: 1),
          expected: "is 16777216×1 pixels, larger than 2048×2048"),
    .init(name: "a WebP whose RIFF size lies", bytes: CraftedImage.riff("VP8X", [0] + [UInt8](repeating: 0, count: 9),
                                                                      riffSize: 0xFFFF_FFF0),
          expected: "is not a valid WebP: its RIFF size says 4294967280 bytes, more than the file has"),
    .init(name: "a WebP whose chunk lies", bytes: Array("RIFF".utf8) + CraftedImage.littleEndian32(22)
              + Array("WEBPVP8X".utf8) + CraftedImage.littleEndian32(0xFFFF_FFFF) + [UInt8](repeating: 0, count: 10),
          expected: "is not a valid WebP: its first chunk says 4294967295 bytes, past the RIFF's end"),
    .init(name: "a WebP of another chunk", bytes: CraftedImage.riff("ALPH", [UInt8](repeating: 0, count: 10)),
          expected: "is not a valid WebP: its first chunk is not VP8, VP8L or VP8X"),
    .init(name: "a WebP cut in its header", bytes: Array(ImageSamples.webp.prefix(18)),
          expected: "is a truncated WebP: its header ends before its size"),
    .init(name: "an SVG with a script", bytes: ImageSamples.svg,
          expected: "is SVG (which can carry script), not a PNG, JPEG or WebP image"),
    .init(name: "an SVG after a byte-order mark and blank lines",
          bytes: [0xEF, 0xBB, 0xBF] + Array("\n\n  <svg viewBox='0 0 1 1'/>".utf8),
          expected: "is SVG (which can carry script), not a PNG, JPEG or WebP image"),
    .init(name: "HTML", bytes: Array("<html><body>hi</body></html>".utf8),
          expected: "is markup (HTML, XML or SVG), not a PNG, JPEG or WebP image"),
    .init(name: "a GIF", bytes: ImageSamples.gif, expected: "is a GIF, not a PNG, JPEG or WebP image"),
    .init(name: "text", bytes: Array("a picture of a cat".utf8), expected: "is not a PNG, JPEG or WebP image"),
    .init(name: "one byte", bytes: [0x89], expected: "is not a PNG, JPEG or WebP image"),
    .init(name: "nothing", bytes: [], expected: "is empty"),
    .init(name: "one byte past 2 MiB", bytes: CraftedImage.png(width: 1, height: 1)
              + [UInt8](repeating: 0, count: (2 << 20) + 1 - 33),
          expected: "is larger than 2 MiB (2097152 bytes)"),
    .init(name: "exactly 2 MiB", bytes: CraftedImage.png(width: 1, height: 1)
              + [UInt8](repeating: 0, count: (2 << 20) - 33),
          expected: "png 1 1"),
]

struct ImageHeaderTests {
    @Test(arguments: rows)
    func eachFileIsReadOrRefusedWithItsReason(_ row: ImageHeaderRow) {
        switch ImageRules.check(row.bytes) {
        case .success(let header):
            #expect("\(header.format.rawValue) \(header.width) \(header.height)" == row.expected)
        case .failure(let refusal):
            #expect(refusal.description == row.expected)
        }
    }

    /// Every prefix of every sample, real and crafted, is read without a trap: a truncated file is refused, never
    /// read past its end.
    @Test func everyPrefixOfEverySampleIsReadWithoutATrap() {
        let samples = [ImageSamples.png, ImageSamples.jpeg, ImageSamples.webp,
                       CraftedImage.webpLossy(width: 1, height: 1), CraftedImage.webpLossless(width: 5, height: 7),
                       CraftedImage.jpeg(width: 9, height: 9)]
        for sample in samples {
            for length in 0...sample.count {
                let prefix = Array(sample.prefix(length))
                if case .success = ImageHeader.read(prefix), length < 24 {
                    Issue.record("a \(length)-byte prefix read as an image")
                }
            }
        }
    }

    @Test func theFormatSaysTheContentTypeWhateverTheFileIsCalled() {
        #expect(ImageHeader.Format.png.contentType == "image/png")
        #expect(ImageHeader.Format.jpeg.contentType == "image/jpeg")
        #expect(ImageHeader.Format.webp.contentType == "image/webp")
    }

    @Test(arguments: [
        ("cat.jpg", true), ("photo of the day.webp", true), ("ü.png", true),
        (String(repeating: "a", count: 255), true),
        (String(repeating: "a", count: 256), false), (".hidden.png", false), ("..", false), ("a/b.png", false),
        ("../../etc/passwd", false), ("", false), ("nul\u{0}.png", false), ("/abs.png", false),
    ])
    func onlyPlainNamesMayBeImages(name: String, plain: Bool) {
        #expect(ImageRules.isPlainName(name) == plain)
    }

    @Test func referencesAreStringsAtAnyDepthThatNameAFile() {
        let content = JSONValue.object([
            "photo": .string("cat.jpg"), "caption": .string("a cat"),
            "gallery": .array([.object(["image": .string("dog.png")]), .string("cat.jpg"), .integer(3)]),
            "dog.png as a key": .null, "missing.png": .string("bird.webp"),
        ])
        let files: Set<String> = ["cat.jpg", "dog.png", "unreferenced.png", "a cat x"]
        #expect(ImageRules.references(in: content, among: files) == ["cat.jpg", "dog.png"])
        #expect(ImageRules.references(in: content, among: []) == [])
        #expect(ImageRules.references(inContentText: #"{"a":["cat.jpg"]}"#, among: files) == ["cat.jpg"])
        #expect(ImageRules.references(inContentText: "not json", among: files) == [])
    }

    @Test func theMessageNamesTheEntryItsDateAndTheFile() {
        let date = Date(timeIntervalSince1970: 1_767_600_000)
        #expect(ImageRules.message(entry: 2, date: date, name: "cat \"1\".svg", problem: "is SVG")
            == #"entry 2 (2026-01-05T08:00:00Z): image "cat \"1\".svg" is SVG"#)
        #expect(ImageRules.message(entry: nil, date: date, name: "a.png", problem: "is empty")
            == #"entry (2026-01-05T08:00:00Z): image "a.png" is empty"#)
    }
}
