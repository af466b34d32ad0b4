import Foundation
import Testing
import WidgetViews
@testable import WidgetHost

/// The host serves a kind's images only from its asset folder, only as the image type their bytes say.
struct AssetFileTests {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]

    /// A fresh folder holding `assets/` (the asset folder) and `outside/`, removed after `body`.
    func withFolders(_ body: (_ assets: String, _ outside: String) throws -> Void) throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("assets-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        for folder in ["assets/icons", "outside"] {
            try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
        try body(root + "/assets", root + "/outside")
    }

    @Test func anImageInTheFolderIsServedAsTheTypeItsBytesSay() throws {
        try withFolders { assets, _ in
            try Data(Self.png).write(to: URL(fileURLWithPath: assets + "/icons/sun.png"))
            let file = try AssetFile.read("icons/sun.png", in: assets).get()
            #expect(file.type == .png)
            #expect(file.type.mediaType == "image/png")
            #expect(file.bytes == Self.png)
        }
    }

    @Test func aNameThatLeavesTheFolderOrHidesIsRefusedBeforeAnyRead() throws {
        try withFolders { assets, _ in
            for name in ["../outside/x.png", "/etc/x.png", ".hidden.png", "icons/../x.png", "x.svg", ""] {
                guard case .failure(.badName) = AssetFile.read(name, in: assets) else {
                    Issue.record("\(name) was not refused by its name")
                    continue
                }
            }
        }
    }

    @Test func aSymlinkOutOfTheFolderIsRefused() throws {
        try withFolders { assets, outside in
            try Data(Self.png).write(to: URL(fileURLWithPath: outside + "/secret.png"))
            try FileManager.default.createSymbolicLink(atPath: assets + "/link.png",
                                                       withDestinationPath: outside + "/secret.png")
            #expect(AssetFile.read("link.png", in: assets) == .failure(.outsideFolder))
        }
    }

    @Test func aFileThatIsNoImageOrTooLargeOrMissingIsRefused() throws {
        try withFolders { assets, _ in
            try Data("<svg onload=alert(1)>".utf8).write(to: URL(fileURLWithPath: assets + "/fake.png"))
            #expect(AssetFile.read("fake.png", in: assets) == .failure(.notAnImage))
            var large = Self.png
            large += [UInt8](repeating: 0, count: ImageType.maximumFileSize)
            try Data(large).write(to: URL(fileURLWithPath: assets + "/large.png"))
            #expect(AssetFile.read("large.png", in: assets) == .failure(.tooLarge))
            #expect(AssetFile.read("none.png", in: assets) == .failure(.notFound))
            try FileManager.default.createDirectory(atPath: assets + "/folder.png", withIntermediateDirectories: true)
            #expect(AssetFile.read("folder.png", in: assets) == .failure(.notFound))
        }
    }
}
