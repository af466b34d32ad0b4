import Foundation
import Testing
import WidgetProtocol
@testable import WidgetProviders

private let directory = "/usr/share/widget-scheduler/providers"
private let manifestPath = directory + "/weather.toml"
private let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]

/// Files in memory: the view files and asset folders a manifest names.
private struct FakeFiles: ManifestFileSystem {
    var files: [String: [UInt8]] = [:]
    var directories: Set<String> = [directory, directory + "/assets"]
    /// Paths that are symlinks, and where they lead.
    var links: [String: String] = [:]

    func kind(of path: String) -> ManifestFileKind? {
        let target = links[path] ?? path
        if directories.contains(target) { return .directory }
        return files[target] == nil ? nil : .regularFile
    }

    func resolvedPath(_ path: String) -> String? {
        kind(of: path) == nil ? nil : links[path] ?? path
    }

    func read(_ path: String, limit: Int) -> (bytes: [UInt8], size: Int)? {
        guard let bytes = files[links[path] ?? path] else { return nil }
        return (Array(bytes.prefix(limit)), bytes.count)
    }
}

private func views(_ body: String, family: String = "systemSmall") -> String {
    #"{"version": 1, "families": {"\#(family)": {"body": \#(body)}}}"#
}

private func parse(_ manifest: String, files: FakeFiles) -> Result<ProviderManifest, ManifestErrors> {
    ManifestParser.parse(manifest, path: manifestPath, files: files)
}

private func errors(_ manifest: String, files: FakeFiles) -> [String] {
    switch parse(manifest, files: files) {
    case .success: return []
    case .failure(let failure): return failure.errors.map(\.description)
    }
}

private let manifestWithViewFile = """
    exec = "./weather.py"
    assets = "assets"

    [[widget]]
    kind = "weather"
    families = ["systemSmall", "systemMedium"]
    views = "weather.views.json"
    """

@Suite struct ManifestViewsTests {
    @Test func aViewFileAndAnAssetFolderLoadWithTheManifest() throws {
        var files = FakeFiles()
        files.files[directory + "/weather.views.json"] = Array(views(#"""
            {"type": "vstack", "children": [{"type": "image", "asset": "sun.png"}, {"type": "text", "value": "t"}]}
            """#).utf8)
        files.files[directory + "/assets/sun.png"] = png
        let manifest = try parse(manifestWithViewFile, files: files).get()
        #expect(manifest.assetsDirectory == directory + "/assets")
        let weather = try #require(manifest.widget(kind: "weather"))
        #expect(weather.viewsFile == directory + "/weather.views.json")
        #expect(weather.views?.objectValue?["version"] == .integer(1))
    }

    @Test func viewsMayBeInlineInTheManifest() throws {
        let manifest = try parse("""
            exec = "./weather.py"
            [[widget]]
            kind = "weather"
            [widget.views]
            version = 1
            [widget.views.families.systemSmall.body]
            type = "text"
            text = "Hello"
            """, files: FakeFiles()).get()
        #expect(manifest.widgets[0].viewsFile == nil)
        #expect(manifest.widgets[0].views != nil)
    }

    @Test func aBadViewIsAnErrorNamingTheViewFileTheFamilyAndThePath() {
        var files = FakeFiles()
        files.files[directory + "/weather.views.json"] = Array(views(#"""
            {"type": "vstack", "children": [{"type": "text", "value": "t", "font": "huge"}]}
            """#, family: "systemMedium").utf8)
        #expect(errors(manifestWithViewFile, files: files) == [
            directory + "/weather.views.json: \"families.systemMedium.body.children[0].font\": expected title | "
                + "headline | body | caption | monospaced, found \"huge\"",
        ])
    }

    @Test func anInlineViewsErrorNamesTheManifestAndTheKeyPath() {
        #expect(errors("""
            exec = "./weather.py"
            [[widget]]
            kind = "weather"
            [widget.views]
            version = 1
            [widget.views.families.systemSmall.body]
            type = "link"
            url = "weather://x"
            content = { type = "spacer" }
            """, files: FakeFiles()) == [
            manifestPath + ": \"widget[0].views.families.systemSmall.body\": systemSmall answers taps only through "
                + "the view's \"url\" (WidgetKit's widgetURL): a link here would never open",
        ])
    }

    @Test func aViewForAFamilyTheKindDoesNotDeclareIsAnError() {
        var files = FakeFiles()
        files.files[directory + "/weather.views.json"] = Array(views(#"{"type": "spacer"}"#, family: "systemLarge").utf8)
        #expect(errors(manifestWithViewFile, files: files) == [
            directory + "/weather.views.json: \"families.systemLarge\": the kind does not declare the family "
                + "systemLarge (its families: systemSmall, systemMedium); add it to \"families\" or remove this view",
        ])
    }

    /// An asset problem, with the file set-up that causes it; named by its message alone, so that the 2 MiB image
    /// is not printed with each run.
    struct AssetCase: CustomTestStringConvertible, Sendable {
        var name: String
        var extraFiles: [String: [UInt8]] = [:]
        var links: [String: String] = [:]
        var message: String
        var testDescription: String { message }
    }

    @Test(arguments: [
        AssetCase(name: "moon.png",
                  message: "no file \"moon.png\" in the asset folder /usr/share/widget-scheduler/providers/assets"),
        AssetCase(name: "sun.png", extraFiles: [directory + "/assets/sun.png": Array("<svg onload=alert(1)>".utf8)],
                  message: "\"sun.png\" is not a PNG, JPEG or WebP image (by its first bytes)"),
        AssetCase(name: "sun.png",
                  extraFiles: [directory + "/assets/sun.png": png + [UInt8](repeating: 0, count: 2 * 1024 * 1024)],
                  message: "\"sun.png\" is larger than 2 MiB"),
        AssetCase(name: "sun.png", extraFiles: ["/etc/secret.png": png],
                  links: [directory + "/assets/sun.png": "/etc/secret.png"],
                  message: "\"sun.png\" leads out of the asset folder /usr/share/widget-scheduler/providers/assets "
                      + "(through a symlink)"),
    ])
    func assetsMustBeImagesInsideTheAssetFolder(_ asset: AssetCase) {
        var files = FakeFiles()
        files.files[directory + "/weather.views.json"] =
            Array(views(#"{"type": "image", "asset": "\#(asset.name)"}"#).utf8)
        files.files.merge(asset.extraFiles) { $1 }
        files.links = asset.links
        #expect(errors(manifestWithViewFile, files: files) == [
            directory + "/weather.views.json: \"families.systemSmall.body.asset\": " + asset.message,
        ])
    }

    @Test func theViewFileMustExistAndBeJSON() {
        #expect(errors(manifestWithViewFile, files: FakeFiles()) == [
            manifestPath + ": \"widget[0].views\": expected a view file, but " + directory
                + "/weather.views.json cannot be read",
        ])
        var files = FakeFiles()
        files.files[directory + "/weather.views.json"] = Array("{not json".utf8)
        #expect(errors(manifestWithViewFile, files: files) == [
            directory + "/weather.views.json: is not JSON text (UTF-8)",
        ])
    }

    @Test func theAssetFolderMustBeADirectory() {
        var files = FakeFiles()
        files.directories = [directory]
        files.files[directory + "/weather.views.json"] = Array(views(#"{"type": "spacer"}"#).utf8)
        #expect(errors(manifestWithViewFile, files: files) == [
            manifestPath + ": \"assets\": expected the provider's asset folder, but " + directory
                + "/assets is not a directory",
        ])
    }

    /// The real file system: a symlink in the asset folder that leads out of it is refused, one inside is not.
    @Test func aSymlinkOutOfTheRealAssetFolderIsRefused() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("views-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/assets/icons", withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: root + "/outside.png", contents: Data(png))
        FileManager.default.createFile(atPath: root + "/assets/icons/sun.png", contents: Data(png))
        try FileManager.default.createSymbolicLink(atPath: root + "/assets/escape.png", withDestinationPath: "../outside.png")
        try FileManager.default.createSymbolicLink(atPath: root + "/assets/alias.png", withDestinationPath: "icons/sun.png")
        func load(_ asset: String) -> Result<ProviderManifest, ManifestErrors> {
            let document = views(#"{"type": "image", "asset": "\#(asset)"}"#)
            FileManager.default.createFile(atPath: root + "/w.views.json", contents: Data(document.utf8))
            return ManifestParser.parse("""
                exec = "./w"
                assets = "assets"
                [[widget]]
                kind = "w"
                views = "w.views.json"
                """, path: root + "/w.toml")
        }
        #expect((try? load("icons/sun.png").get()) != nil)
        #expect((try? load("alias.png").get()) != nil)
        guard case .failure(let failure) = load("escape.png") else {
            Issue.record("a symlink out of the asset folder was accepted")
            return
        }
        #expect(failure.errors.map(\.message) == [
            "\"escape.png\" leads out of the asset folder \(root)/assets (through a symlink)",
        ])
    }
}
