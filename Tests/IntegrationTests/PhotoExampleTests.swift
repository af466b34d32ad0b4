import Foundation
import Testing
import WidgetProtocol
import WidgetSchedulerTestKit

/// The repository's examples/ folder, found from this file's path.
private let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("examples")

/// The photo-of-the-day example (examples/photo, examples/photo-app) against the real daemon: the app fills the
/// group's album, the provider saves the day's picture for its entries, and the daemon stores and serves its bytes.
@Suite("The photo example against the real daemon")
struct PhotoExampleTests {
    @Test("the app's pictures reach the widget through the group; the daemon serves the very bytes")
    func theAppsPictureIsShownAndServed() throws {
        let world = try DaemonWorld(config: "minimum-interval = 0\n")
        // Linked, not copied: the manifest, its views and the provider as shipped, the SDK through the example's link.
        for name in ["photo.toml", "photo.py", "photo.views.json", "widgetkit"] {
            try FileManager.default.createSymbolicLink(
                at: world.providersDirectory.appendingPathComponent(name),
                withDestinationURL: examples.appendingPathComponent("photo/\(name)"))
        }
        // The folder the app reads: a copy of its sample pictures, so the test can take one away.
        let folder = world.root.appendingPathComponent("album")
        try FileManager.default.copyItem(at: examples.appendingPathComponent("photo-app/pictures"), to: folder)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let app = ["/usr/bin/python3", examples.appendingPathComponent("photo-app/photo-app").path, folder.path]
        let environment = ["PYTHONDONTWRITEBYTECODE": "1"]
        try world.start()
        let id = try world.add("photo")
        let empty = try world.waitUntilIdle(id, timeout: 60)
        #expect(empty.lastOutcome == "success", "\(empty)\n\(world.daemonLog)")
        #expect(empty.currentEntry?.content.objectValue?["caption"] == .string("No pictures yet"))
        #expect(empty.currentEntry?.images == nil)

        let filled = try world.run(app, environment: environment).wait()
        #expect(filled.status == 0, "\(filled)")
        #expect(filled.standardOutput.hasPrefix("\(id): "), "the reload's decision: \(filled)")
        #expect(filled.standardError == "photo-app: \(names.count) pictures in the album\n")
        let entry = try eventually("the widget to show a picture", timeout: 60) { () -> WidgetSummary.CurrentEntry? in
            let current = try world.summary(id).currentEntry
            return current?.content.objectValue?["photo"] == nil ? nil : current
        }
        let name = try #require(entry.content.objectValue?["photo"]?.stringValue)
        #expect(names.contains(name))
        let image = try #require(entry.images?[name], "the entry's images: \(entry)")
        let bytes = Array(try Data(contentsOf: folder.appendingPathComponent(name)))
        #expect(image.byteCount == bytes.count)
        #expect(image.contentType == ["jpg": "image/jpeg", "png": "image/png", "webp": "image/webp"][
            (name as NSString).pathExtension])
        let reply = try world.connect().call(.image, ["widget": .string(id), "sha256": .string(image.sha256)])
        let served = try VarlinkCoding.decode(ImageMethod.Reply.self, from: reply)
        #expect(Data(base64Encoded: served.data).map(Array.init) == bytes, "the stored bytes are the app's picture")

        // Nothing changed: nothing is written and no reload is asked.
        let again = try world.run(app, environment: environment).wait()
        #expect(again.status == 0, "\(again)")
        #expect(again.standardOutput == "")
        #expect(again.standardError == "photo-app: \(names.count) pictures in the album, unchanged\n")

        // A picture taken out of the folder leaves the album.
        try FileManager.default.removeItem(at: folder.appendingPathComponent(names[0]))
        let fewer = try world.run(app, environment: environment).wait()
        #expect(fewer.status == 0, "\(fewer)")
        guard case .array(let items) = try world.widgetctlSucceeding("data", "list", "photos", "--json").json() else {
            Issue.record("widgetctl data list --json gave no array")
            return
        }
        #expect(items.compactMap { $0.objectValue?["key"]?.stringValue } == names.dropFirst().map { "photo." + $0 })
    }
}
