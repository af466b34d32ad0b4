import Foundation
import Testing
import WidgetProtocol
import WidgetProviders
import WidgetSchedulerCore
import WidgetSchedulerTestKit
import WidgetViews

/// The repository's `examples/` folder, found from this file's path.
private let examplesDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("examples").path

private let scriptManifests = [
    "weather/weather.toml", "python/quote.toml", "shell/system.toml", "trivial/trivial.toml", "photo/photo.toml",
]

/// Runs a manifest's exec with `request` on stdin, outside the runner's sandbox.
private func run(_ manifest: ProviderManifest, _ request: ProviderRequest,
                 environment: [String: String] = [:]) throws -> (status: Int32, stdout: [UInt8]) {
    let run = try ChildProcess.capture(manifest.exec,
                                       environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
                                       input: request.encodedLine())
    return (run.status, run.output)
}

private func loadManifest(_ relativePath: String) throws -> ProviderManifest {
    try ManifestLoader.load(file: examplesDirectory + "/" + relativePath).get()
}

private func request(
    _ kind: ProviderRequestKind,
    for manifest: ProviderManifest,
    configuration: [String: JSONValue] = [:],
    dataDirectory: String? = nil
) -> ProviderRequest {
    ProviderRequest(
        request: kind, kind: manifest.widgets[0].kind,
        widget: .init(id: "w1", family: "systemSmall", configuration: configuration),
        parameter: manifest.widgets[0].parameters.first?.name, search: "",
        context: .init(now: Date(timeIntervalSince1970: 1_767_600_000), reason: .initial, dataDirectory: dataDirectory)
    )
}

@Test("every example manifest loads without errors, each kind once")
func exampleManifestsLoad() {
    let directories = ["clock-swift", "weather", "python", "shell", "trivial", "photo"].map {
        examplesDirectory + "/" + $0
    }
    let set = ManifestLoader.load(directories: directories)
    #expect(set.errors.map(\.description) == [])
    #expect(set.kinds == ["clock", "countdown", "photo", "quote", "system", "trivial", "weather"])
    for manifest in set.manifests {
        #expect(manifest.exec[0].hasPrefix(examplesDirectory + "/"))
    }
}

@Test("the script examples answer a timeline that the strict decoder accepts", arguments: scriptManifests)
func scriptExampleAnswersValidTimeline(_ path: String) throws {
    let manifest = try loadManifest(path)
    let (status, stdout) = try run(manifest, request(.timeline, for: manifest))
    #expect(status == 0)
    let timeline = try ProviderAnswerDecoder.timeline(from: stdout).get()
    #expect(!timeline.entries.isEmpty)
    for (earlier, later) in zip(timeline.entries, timeline.entries.dropFirst()) {
        #expect(later.date.timeIntervalSince(earlier.date) >= 300)
    }
}

@Test("every example kind has a view for each of its families, drawing its timeline without a missing field",
      arguments: scriptManifests)
func scriptExamplesDrawEveryFamily(_ path: String) throws {
    let manifest = try loadManifest(path)
    let kind = manifest.widgets[0]
    let document = try ViewDocument(json: try #require(kind.views, "\(kind.kind) has no views"))
    #expect(document.sortedFamilies.map(\.rawValue).sorted() == kind.families.sorted())
    let (_, stdout) = try run(manifest, request(.timeline, for: manifest))
    let timeline = try ProviderAnswerDecoder.timeline(from: stdout).get()
    for entry in timeline.entries {
        let content = JSONValue(jsonText: entry.content) ?? .null
        for family in document.sortedFamilies {
            let view = try #require(document.view(for: family))
            let context = RenderContext(now: entry.date, entryDate: entry.date)
            let widget = Resolver.resolve(view, family: family, content: content, context: context)
            #expect(widget.problems.isEmpty, "\(kind.kind) \(family.rawValue): \(widget.problems)")
        }
    }
}

@Test("the script examples answer every other request kind validly", arguments: [
    "weather/weather.toml", "python/quote.toml", "shell/system.toml", "photo/photo.toml",
])
func scriptExampleAnswersEveryRequestKind(_ path: String) throws {
    let manifest = try loadManifest(path)
    for kind in [ProviderRequestKind.snapshot, .placeholder, .defaults, .options] {
        let (status, stdout) = try run(manifest, request(kind, for: manifest))
        #expect(status == 0, "\(kind)")
        let answer = ProviderAnswerDecoder.answer(to: kind, from: stdout)
        if case .failure(let error) = answer { Issue.record("\(path) \(kind): \(error)") }
    }
}

@Test("the trivial example refuses anything but a timeline with exit status 2")
func trivialRefusesOtherRequests() throws {
    let manifest = try loadManifest("trivial/trivial.toml")
    #expect(try run(manifest, request(.snapshot, for: manifest)).status == 2)
}

@Test("weather uses the app's shared location while fresh and falls back when it is stale or missing", arguments: [
    (Optional("2026-01-05T07:00:00Z"), "Lyon", "shared"),
    (Optional("2026-01-03T07:00:00Z"), "Cupertino", "fallback"),
    (nil, "Cupertino", "fallback"),
])
func weatherChecksSharedDataAge(_ updatedAt: String?, _ location: String, _ source: String) throws {
    let manifest = try loadManifest("weather/weather.toml")
    let directory = NSTemporaryDirectory() + "weather-group-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    if let updatedAt {
        try #"{"value": "Lyon", "updatedAt": "\#(updatedAt)"}"#.write(
            toFile: directory + "/location", atomically: true, encoding: .utf8
        )
    }
    let defaults = try run(manifest, request(.defaults, for: manifest, dataDirectory: directory))
    #expect(try ProviderAnswerDecoder.configuration(from: defaults.stdout).get() == ["location": .string(location)])
    let timeline = try run(manifest, request(.timeline, for: manifest, dataDirectory: directory))
    let first = try #require(try ProviderAnswerDecoder.timeline(from: timeline.stdout).get().entries.first)
    let content = try #require(JSONValue(jsonText: first.content)?.objectValue)
    #expect(content["location"] == .string(location))
    #expect(content["source"] == .string(source))
}

@Test("weather prefers the widget's configured location over shared data")
func weatherPrefersConfiguration() throws {
    let manifest = try loadManifest("weather/weather.toml")
    let answer = try run(manifest, request(.snapshot, for: manifest, configuration: ["location": .string("Oslo")]))
    let entry = try ProviderAnswerDecoder.entry(from: answer.stdout).get()
    #expect(JSONValue(jsonText: entry.content)?.objectValue?["location"] == .string("Oslo"))
}

@Test("photo shows the next picture of the app's album each day, saved for its entries, drawn in every family")
func photoShowsTheDaysPictureFromTheAlbum() throws {
    let manifest = try loadManifest("photo/photo.toml")
    let root = NSTemporaryDirectory() + "photo-" + UUID().uuidString
    let (data, images) = (root + "/data", root + "/images")
    for directory in [data, images] {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }
    defer { try? FileManager.default.removeItem(atPath: root) }
    // The album as the daemon writes the group's values for its providers: one file per key (docs/apps.md).
    let folder = examplesDirectory + "/photo-app/pictures"
    var pictures: [String: [UInt8]] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
        pictures[name] = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
    }
    #expect(pictures.count >= 2, "the app's sample folder")
    func store(_ key: String, _ bytes: [UInt8]) throws {
        try #"{"value": "\#(Data(bytes).base64EncodedString())", "updatedAt": "2026-01-05T07:00:00Z"}"#
            .write(toFile: data + "/" + key, atomically: true, encoding: .utf8)
    }
    for (name, bytes) in pictures { try store("photo." + name, bytes) }
    // A drawing the daemon would refuse (SVG) is left out by the provider, so the album's pictures still show.
    try store("photo.drawing.svg", Array("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8))
    var timelineRequest = request(.timeline, for: manifest, dataDirectory: data)
    timelineRequest.context.imageDirectory = images
    let (status, stdout) = try run(manifest, timelineRequest, environment: ["TZ": "UTC"])
    #expect(status == 0)
    let timeline = try ProviderAnswerDecoder.timeline(from: stdout).get()
    // Today's entry and tomorrow's, at midnight in the provider's zone.
    #expect(timeline.entries.map(\.date) == [Date(timeIntervalSince1970: 1_767_600_000),
                                             Date(timeIntervalSince1970: 1_767_657_600)])
    let names = pictures.keys.sorted()
    var shown: [Int] = []
    let kind = manifest.widgets[0]
    let document = try ViewDocument(json: try #require(kind.views))
    for entry in timeline.entries {
        let content = try #require(JSONValue(jsonText: entry.content)?.objectValue)
        let name = try #require(content["photo"]?.stringValue, "\(entry.content)")
        let index = try #require(names.firstIndex(of: name), "\(name) is not in the album")
        shown.append(index)
        #expect(content["position"] == .string("\(index + 1) of \(names.count)"))
        let written = Array(try Data(contentsOf: URL(fileURLWithPath: images + "/" + name)))
        #expect(written == pictures[name], "the picture saved for the entry is the app's")
        let header = try ImageRules.check(written).get()
        let image = EntryImage(sha256: String(repeating: "a", count: 64), contentType: header.format.contentType,
                               width: header.width, height: header.height, byteCount: written.count)
        for family in document.sortedFamilies {
            let view = try #require(document.view(for: family))
            let context = RenderContext(now: entry.date, entryDate: entry.date, images: [name: image])
            let widget = Resolver.resolve(view, family: family, content: .object(content), context: context)
            #expect(widget.problems.isEmpty, "\(family.rawValue): \(widget.problems)")
            let html = HTMLRenderer.render(widget, options: .init(imageBaseURL: "/images/w1/"))
            #expect(html.contains("src=\"/images/w1/\(image.sha256)\""), "\(family.rawValue) shows no picture")
        }
    }
    #expect(shown == [shown[0], (shown[0] + 1) % names.count], "the next picture each day")
    let saved = try FileManager.default.contentsOfDirectory(atPath: images).sorted()
    #expect(saved == Set(shown.map { names[$0] }).sorted(), "only the pictures the entries show are saved")
}
