import Foundation
import Testing
import WidgetProtocol
import WidgetProviders
import WidgetSchedulerCore
@testable import WidgetSchedulerRuntime
import WidgetSchedulerTestKit

/// Images a provider writes in its run's directory: taken, validated, stored once by hash, named in the entries, and
/// kept exactly as long as a stored entry or a kept preview refers to them (against the test kit's image store).
struct WidgetServiceImageTests {
    /// A service with an image store, and a widget whose initial run is in flight.
    private func started(_ images: InMemoryImageStore = InMemoryImageStore(),
                         store: InMemoryStateStore = InMemoryStateStore()) throws
        -> (WidgetServiceHarness, String, FakeProviderLauncher.Launch)
    {
        let harness = try WidgetServiceHarness(store: store, images: images)
        let id = try harness.addWidget(kind: "clock")
        return (harness, id, try #require(harness.launcher.launches.last))
    }

    private func directory(of launch: FakeProviderLauncher.Launch) throws -> String {
        try #require(launch.invocation.request.context.imageDirectory)
    }

    /// A timeline of one entry per content, a second apart from now.
    private func timeline(_ harness: WidgetServiceHarness, _ contents: [String]) -> Timeline {
        let start = harness.clock.now().wall
        return Timeline(entries: contents.enumerated().map {
            TimelineEntry(date: start.addingTimeInterval(Double($0.offset)), content: $0.element)
        }, policy: .never)
    }

    private static let sha256OfPNG = ImageDigest.sha256(ImageSamples.png)

    @Test func aTimelineRunGetsAFreshDirectoryAndItsEntriesNameTheImagesStoredOnce() throws {
        let images = InMemoryImageStore()
        let (harness, id, launch) = try started(images)
        let directory = try directory(of: launch)
        #expect(images.names(inRunDirectory: directory).isEmpty, "fresh and empty")
        images.put(.regular(ImageSamples.png), named: "cat.png", in: directory)
        images.put(.regular(ImageSamples.jpeg), named: "unreferenced.jpg", in: directory)
        launch.succeed(timeline(harness, [#"{"caption":"a cat","photo":"cat.png"}"#, #"{"p":["cat.png"]}"#]))
        #expect(images.runDirectories[directory] == nil, "the run's directory is removed")
        #expect(images.stored.keys.sorted() == [Self.sha256OfPNG], "stored once, the unreferenced file dropped")
        let expected = EntryImage(sha256: Self.sha256OfPNG, contentType: "image/png", width: 16, height: 16,
                                  byteCount: ImageSamples.png.count)
        let reply = try harness.service.timeline(id: id)
        #expect(reply.entries.map(\.images) == [["cat.png": expected], ["cat.png": expected]])
        #expect(reply.entries[0].content == .object(["caption": .string("a cat"), "photo": .string("cat.png")]),
                "content is never rewritten")
        #expect(harness.service.list().first?.currentEntry?.images == ["cat.png": expected])
        harness.service.flush()
        #expect(harness.store.imageReferenceRows[id] == [Self.sha256OfPNG])
        let image = try harness.service.image(ImageMethod.Parameters(widget: id, sha256: Self.sha256OfPNG))
        #expect(image == ImageMethod.Reply(image: expected, data: Data(ImageSamples.png).base64EncodedString()))
    }

    @Test func aProviderThatSavesNoImagesGetsNoDirectoryForItsRunsOrSnapshots() throws {
        let images = InMemoryImageStore()
        let harness = try WidgetServiceHarness(images: images)
        _ = try harness.addWidget(kind: "note")
        let launch = try #require(harness.launcher.launches.last)
        #expect(launch.invocation.request.context.imageDirectory == nil)
        harness.service.snapshot(kind: "note", family: nil, parameters: [:], uid: nil) { _ in }
        let snapshot = try #require(harness.launcher.launches.last)
        #expect(snapshot.invocation.request.request == .snapshot)
        #expect(snapshot.invocation.request.context.imageDirectory == nil)
        #expect(images.runDirectories.isEmpty, "no directory made for either")
    }

    struct Refusal: CustomTestStringConvertible, Sendable {
        let file: InMemoryImageStore.File
        let problem: String
        var testDescription: String { problem }
    }

    static let refusals: [Refusal] = [
        Refusal(file: .regular(ImageSamples.svg), problem: "is SVG (which can carry script), not a PNG, JPEG or "
            + "WebP image"),
        Refusal(file: .regular(ImageSamples.gif), problem: "is a GIF, not a PNG, JPEG or WebP image"),
        Refusal(file: .regular(Array("just text".utf8)), problem: "is not a PNG, JPEG or WebP image"),
        Refusal(file: .regular(ImageSamples.png + [UInt8](repeating: 0, count: 2 << 20)),
                problem: "is larger than 2 MiB (2097152 bytes)"),
        Refusal(file: .regular(CraftedImage.png(width: 4096, height: 16)),
                problem: "is 4096×16 pixels, larger than 2048×2048"),
        Refusal(file: .symbolicLink, problem: "is a symbolic link"),
        Refusal(file: .fifo, problem: "is a FIFO"),
        Refusal(file: .hardLinked(ImageSamples.png), problem: "has 2 hard links: an image must be a file of its own"),
        Refusal(file: .directory, problem: "is a directory"),
    ]

    @Test(arguments: refusals)
    func aBadImageFailsTheRunInvalidNamingTheEntryAndTheFile(_ refusal: Refusal) throws {
        let images = InMemoryImageStore()
        let (harness, id, launch) = try started(images)
        let directory = try directory(of: launch)
        images.put(.regular(ImageSamples.png), named: "good.png", in: directory)
        images.put(refusal.file, named: "bad.img", in: directory)
        let answer = timeline(harness, [#"{"photo":"good.png"}"#, #"{"photo":"bad.img"}"#])
        launch.succeed(answer)
        let date = RFC3339.string(from: answer.entries[1].date)
        #expect(harness.service.list().first?.lastOutcome == "invalid")
        let failed = try #require(harness.journal.entries(messageID: JournalMessageID.runFailed.rawValue).last)
        #expect(failed.message.contains(#"entry 1 (\#(date)): image "bad.img" \#(refusal.problem)"#))
        #expect(images.stored.isEmpty, "nothing of a refused answer is stored")
        #expect(images.runDirectories[directory] == nil)
        #expect(try harness.service.timeline(id: id).entries.isEmpty, "the widget keeps its previous timeline")
    }

    @Test func theTimelinesImagesTogetherMayNotPass16MiB() throws {
        let images = InMemoryImageStore()
        let (harness, _, launch) = try started(images)
        let directory = try directory(of: launch)
        // Nine distinct images of exactly 2 MiB: the ninth brings the timeline past 16 MiB.
        var contents: [String] = []
        for index in 0..<9 {
            var bytes = CraftedImage.png(width: 16, height: 16)
            bytes += [UInt8](repeating: UInt8(index), count: (2 << 20) - bytes.count)
            images.put(.regular(bytes), named: "p\(index).png", in: directory)
            contents.append(#"{"photo":"p\#(index).png"}"#)
        }
        // The same image named twice counts once.
        contents.append(#"{"photo":"p0.png"}"#)
        launch.succeed(timeline(harness, contents))
        let failed = try #require(harness.journal.entries(messageID: JournalMessageID.runFailed.rawValue).last)
        #expect(failed.message.contains(#"entry 8 ("#))
        #expect(failed.message.contains(#"image "p8.png" brings the timeline's images to 18874368 bytes, past 16 MiB"#))
        #expect(images.stored.isEmpty)
    }

    @Test func namesThatAreNoPlainFileNameAreNeverReferences() throws {
        let images = InMemoryImageStore()
        let (harness, id, launch) = try started(images)
        let directory = try directory(of: launch)
        images.put(.regular(ImageSamples.png), named: ".hidden.png", in: directory)
        launch.succeed(timeline(harness, [#"{"a":".hidden.png","b":"../../etc/passwd","c":"/etc/passwd"}"#]))
        #expect(harness.service.list().first?.lastOutcome == "success")
        #expect(try harness.service.timeline(id: id).entries.first?.images == nil)
        #expect(images.stored.isEmpty)
    }

    @Test func oneImageOfTwoWidgetsIsStoredOnceAndGoesWithTheLastThatNamesIt() throws {
        let images = InMemoryImageStore()
        let (harness, first, firstLaunch) = try started(images)
        images.put(.regular(ImageSamples.png), named: "a.png", in: try directory(of: firstLaunch))
        firstLaunch.succeed(timeline(harness, [#"{"photo":"a.png"}"#]))
        let second = try harness.addWidget(kind: "clock")
        let secondLaunch = try #require(harness.launcher.launches.last)
        images.put(.regular(ImageSamples.png), named: "same.png", in: try directory(of: secondLaunch))
        secondLaunch.succeed(timeline(harness, [#"{"photo":"same.png"}"#]))
        harness.service.flush()
        #expect(images.storeCounts == [Self.sha256OfPNG: 1])
        try harness.service.remove(id: first)
        harness.service.flush()
        #expect(images.stored[Self.sha256OfPNG] != nil, "the second widget still names it")
        try harness.service.remove(id: second)
        #expect(images.stored[Self.sha256OfPNG] != nil, "kept until the removal is committed")
        harness.service.flush()
        #expect(images.stored.isEmpty)
        #expect(harness.store.imageReferenceRows.isEmpty)
    }

    @Test func anImageGoesWithTheTimelineThatNamedItOnceTheNewOneIsCurrentAndCommitted() throws {
        let images = InMemoryImageStore()
        let (harness, id, launch) = try started(images)
        images.put(.regular(ImageSamples.png), named: "old.png", in: try directory(of: launch))
        launch.succeed(timeline(harness, [#"{"photo":"old.png"}"#]))
        harness.service.flush()
        harness.advance(to: 400)
        _ = try harness.service.reload(.widgets([id]), foreground: false)
        let next = try #require(harness.launcher.launches.last)
        #expect(next !== launch)
        images.put(.regular(ImageSamples.jpeg), named: "new.jpg", in: try directory(of: next))
        let newHash = ImageDigest.sha256(ImageSamples.jpeg)
        next.succeed(timeline(harness, [#"{"photo":"new.jpg"}"#]))
        #expect(images.stored[Self.sha256OfPNG] != nil, "the store still names the old one until the write")
        harness.service.flush()
        #expect(images.stored.keys.sorted() == [newHash])
        #expect(harness.store.imageReferenceRows[id] == [newHash])
        #expect(throws: ControlError.noSuchImage(widget: id, sha256: Self.sha256OfPNG)) {
            try harness.service.image(ImageMethod.Parameters(widget: id, sha256: Self.sha256OfPNG))
        }
    }

    @Test func theCurrentEntryKeepsItsImageWhileANewTimelineWaitsForItsFirstDate() throws {
        let images = InMemoryImageStore()
        let (harness, id, launch) = try started(images)
        images.put(.regular(ImageSamples.png), named: "now.png", in: try directory(of: launch))
        launch.succeed(timeline(harness, [#"{"photo":"now.png"}"#]))
        harness.advance(to: 400)
        _ = try harness.service.reload(.widgets([id]), foreground: false)
        let next = try #require(harness.launcher.launches.last)
        let later = harness.clock.now().wall.addingTimeInterval(3_600)
        next.succeed(Timeline(entries: [TimelineEntry(date: later, content: #"{"photo":"none"}"#)], policy: .never))
        harness.service.flush()
        #expect(images.stored[Self.sha256OfPNG] != nil, "the current entry still shows it")
        #expect(harness.store.imageReferenceRows[id] == [Self.sha256OfPNG])
        #expect(try harness.service.image(ImageMethod.Parameters(widget: id, sha256: Self.sha256OfPNG)).image.width
                == 16)
        harness.advance(to: 400 + 3_601)
        harness.service.flush()
        #expect(images.stored.isEmpty, "gone once the new timeline's entry is current")
    }

    @Test func aRestartKeepsWhatStoredEntriesNameAndSweepsTheRest() throws {
        let images = InMemoryImageStore()
        let store = InMemoryStateStore()
        let (harness, id, launch) = try started(images, store: store)
        images.put(.regular(ImageSamples.png), named: "kept.png", in: try directory(of: launch))
        launch.succeed(timeline(harness, [#"{"photo":"kept.png"}"#]))
        harness.service.flush()
        images.leave(ImageSamples.gif, sha256: String(repeating: "0", count: 64))
        _ = try images.makeRunDirectory()
        let restarted = try WidgetServiceHarness(store: store, images: images)
        #expect(images.stored.keys.sorted() == [Self.sha256OfPNG])
        #expect(images.runDirectories.isEmpty, "a dead process's run directories go")
        #expect(try restarted.service.image(ImageMethod.Parameters(widget: id, sha256: Self.sha256OfPNG)).image.height
                == 16)
        #expect(restarted.journal.entries.contains { $0.message == "removed 1 stored image no entry refers to" })
    }

    @Test func aPreviewsImagesAreServedByKindAndOnlyTheLatestPreviewsKeepTheirs() throws {
        let images = InMemoryImageStore()
        let harness = try WidgetServiceHarness(images: images)
        var hashes: [String] = []
        for index in 0..<(KeptPreviews.perKind + 1) {
            var reply: Result<SnapshotMethod.Reply, ControlError>?
            harness.service.snapshot(kind: "weather", family: nil,
                                     parameters: ["location": .string("City \(index)")], uid: nil) { reply = $0 }
            let launch = try #require(harness.launcher.launches.last)
            let directory = try directory(of: launch)
            var bytes = CraftedImage.png(width: 8, height: 8)
            bytes.append(UInt8(index))
            images.put(.regular(bytes), named: "preview.png", in: directory)
            launch.complete(.success(.entry(TimelineEntry(date: harness.clock.now().wall,
                                                          content: #"{"photo":"preview.png"}"#)), stderrTail: ""))
            let entry = try #require(try reply?.get()).entry
            let image = try #require(entry.images?["preview.png"])
            hashes.append(image.sha256)
            #expect(try harness.service.image(ImageMethod.Parameters(kind: "weather", sha256: image.sha256)).image.width
                    == 8)
            #expect(throws: ControlError.noSuchImage(kind: "clock", sha256: image.sha256)) {
                try harness.service.image(ImageMethod.Parameters(kind: "clock", sha256: image.sha256))
            }
        }
        #expect(throws: ControlError.noSuchImage(kind: "weather", sha256: hashes[0])) {
            try harness.service.image(ImageMethod.Parameters(kind: "weather", sha256: hashes[0]))
        }
        harness.service.flush()
        #expect(Set(images.stored.keys) == Set(hashes.dropFirst()), "the oldest preview's image is gone")
    }

    @Test(arguments: [
        (ImageMethod.Parameters(sha256: sha256OfPNG), ControlError.invalidParameter(
            "widget", reason: "give exactly one of widget and kind")),
        (ImageMethod.Parameters(widget: "w1", kind: "clock", sha256: sha256OfPNG), ControlError.invalidParameter(
            "widget", reason: "give exactly one of widget and kind")),
        (ImageMethod.Parameters(widget: "w9", sha256: sha256OfPNG), ControlError.unknownWidget("w9")),
        (ImageMethod.Parameters(kind: "nope", sha256: sha256OfPNG), ControlError.unknownKind("nope")),
        (ImageMethod.Parameters(widget: "w1", sha256: "ABC"), ControlError.invalidParameter(
            "sha256", reason: "must be a SHA-256 as an entry's images give it: 64 lowercase hexadecimal digits")),
        (ImageMethod.Parameters(widget: "w1", sha256: sha256OfPNG), ControlError.noSuchImage(
            widget: "w1", sha256: sha256OfPNG)),
    ])
    func imageRefusesWhatItCannotServeWithTheDeclaredErrors(parameters: ImageMethod.Parameters,
                                                          error: ControlError) throws {
        let (harness, _, _) = try started()
        #expect(throws: error) { try harness.service.image(parameters) }
    }

    @Test func withoutAnImageStoreRunsGetNoDirectory() throws {
        let harness = try WidgetServiceHarness()
        _ = try harness.addWidget(kind: "clock")
        #expect(try #require(harness.launcher.launches.last).invocation.request.context.imageDirectory == nil)
    }
}
