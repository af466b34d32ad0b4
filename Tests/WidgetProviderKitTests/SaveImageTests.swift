import Foundation
import Testing
import WidgetProviderKit

private let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 24))

private func temporaryDirectory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kit-images-" + UUID().uuidString)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
}

private struct PhotoEntry: TimelineEntry {
    let date: Date
    let photo: String?
}

/// Saves its picture in the timeline and shows none in the placeholder, as a provider of photos does.
private struct PhotoProvider: TimelineProvider {
    func placeholder(in context: Context) -> PhotoEntry {
        PhotoEntry(date: context.now, photo: try? context.saveImage(png, name: "today.png"))
    }

    func getSnapshot(in context: Context, completion: @escaping @Sendable (PhotoEntry) -> Void) {
        completion(placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<PhotoEntry>) -> Void) {
        let name = try? context.saveImage(png, name: "today.png")
        completion(Timeline(entries: [PhotoEntry(date: context.now, photo: name)], policy: .never))
    }
}

private struct PhotoWidget: Widget {
    var body: some WidgetConfiguration { StaticConfiguration(kind: "photo", provider: PhotoProvider()) }
}

@Suite struct SaveImageTests {
    @Test func saveImageWritesTheFileAndReturnsItsName() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let context = TimelineProviderContext(kind: "photo", imageDirectory: directory)
        #expect(try context.saveImage(png, name: "cat.png") == "cat.png")
        #expect(FileManager.default.contents(atPath: directory.appendingPathComponent("cat.png").path) == png)
        // The same name again replaces the file.
        try context.saveImage(Data([0xFF, 0xD8, 0xFF]), name: "cat.png")
        #expect(FileManager.default.contents(atPath: directory.appendingPathComponent("cat.png").path)
            == Data([0xFF, 0xD8, 0xFF]))
    }

    @Test(arguments: ["", "a/b.png", "../up.png", ".hidden.png", "nul\u{0}.png",
                      String(repeating: "x", count: 252) + "é.png"])
    func aNameThatIsNotAPlainFileNameIsRefused(name: String) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let context = TimelineProviderContext(kind: "photo", imageDirectory: directory)
        #expect(throws: ProviderKitError.imageNotSaved(name: name, reason: "expected a plain file name of 1 to 255 "
            + "bytes, without \"/\" or a leading \".\", such as \"photo.jpg\"")) {
            try context.saveImage(png, name: name)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        let longest = String(repeating: "x", count: 251) + ".png"
        #expect(try context.saveImage(png, name: longest) == longest)
    }

    @Test func aRequestWithoutAnImageDirectoryIsRefused() {
        let error = ProviderKitError.imageNotSaved(
            name: "cat.png",
            reason: "this request has no image directory (only timeline and snapshot requests of a provider whose "
                + "manifest says images = true have one)")
        #expect(throws: error) { try TimelineProviderContext(kind: "photo").saveImage(png, name: "cat.png") }
        #expect(error.description.hasPrefix("could not save the image \"cat.png\": this request has no image"))
    }

    @Test func theRequestsImageDirectoryReachesTheProvider() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func answer(_ request: String, _ context: String) async throws -> String {
            let data = Data(#"""
                {"protocol": 1, "request": "\#(request)", "kind": "photo", "widget": {"id": "w1"},
                 "context": {"now": "2026-01-05T08:00:00Z"\#(context)}}
                """#.utf8)
            let output = try await ProviderMain.answer(to: data, widgets: PhotoWidget().staticConfigurations).get()
            return String(decoding: output, as: UTF8.self)
        }
        #expect(try await answer("timeline", #", "imageDirectory": "\#(directory.path)""#) == #"""
            {"entries":[{"content":{"date":"2026-01-05T08:00:00Z","photo":"today.png"},\#
            "date":"2026-01-05T08:00:00Z"}],"policy":"never"}
            """#)
        #expect(FileManager.default.contents(atPath: directory.appendingPathComponent("today.png").path) == png)
        // A placeholder has no image directory: the entry shows no picture.
        #expect(try await answer("placeholder", "")
            == #"{"entry":{"content":{"date":"2026-01-05T08:00:00Z"},"date":"2026-01-05T08:00:00Z"}}"#)
    }
}
