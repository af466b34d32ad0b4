import Foundation
import Testing
import WidgetControlClient
import WidgetProtocol
@testable import WidgetHost

/// `/images/WIDGET/SHA256`: the host serves what the daemon's `Image` gives, checked, with cache headers; refusals
/// become the HTTP statuses a page expects. The daemon is played by the `fetch` closure.
struct ProvidedImageTests {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 7, count: 40)
    static let sha256 = String(repeating: "ab", count: 32)

    static func reply(_ bytes: [UInt8] = png, type: String = "image/png", byteCount: Int? = nil,
                      data: String? = nil) -> ImageMethod.Reply {
        ImageMethod.Reply(
            image: EntryImage(sha256: sha256, contentType: type, width: 4, height: 3,
                              byteCount: byteCount ?? bytes.count),
            data: data ?? Data(bytes).base64EncodedString())
    }

    /// The answer for `sha256`, with how many times the daemon was asked.
    static func answer(
        _ sha256: String = sha256, ifNoneMatch: String? = nil,
        daemon: @escaping @Sendable () throws(HostError) -> ImageMethod.Reply
    ) async -> (ProvidedImage.Answer, asked: Int) {
        var asked = 0
        let answer = await ProvidedImage.answer(sha256: sha256, ifNoneMatch: ifNoneMatch) { () throws(HostError) in
            asked += 1
            return try daemon()
        }
        return (answer, asked)
    }

    @Test func theDaemonsBytesAreServedWithTheirTypeAndTheHashAsETag() async {
        let (answer, asked) = await Self.answer { Self.reply() }
        #expect(answer == .image(ProvidedImage(bytes: Self.png, type: .png), etag: "\"\(Self.sha256)\""))
        #expect(asked == 1)
        #expect(ProvidedImage.cacheControl == "public, max-age=31536000, immutable")
    }

    @Test func aPageThatHasTheImageIsAnswered304WithoutAskingTheDaemon() async {
        for header in ["\"\(Self.sha256)\"", "W/\"\(Self.sha256)\"", "\"other\", \"\(Self.sha256)\"", "*"] {
            let (answer, asked) = await Self.answer(ifNoneMatch: header) { Self.reply() }
            #expect(answer == .notModified(etag: "\"\(Self.sha256)\""), "If-None-Match: \(header)")
            #expect(asked == 0)
        }
        let (answer, asked) = await Self.answer(ifNoneMatch: "\"other\"") { Self.reply() }
        #expect(asked == 1)
        #expect(answer == .image(ProvidedImage(bytes: Self.png, type: .png), etag: "\"\(Self.sha256)\""))
    }

    @Test(arguments: ["", "abc", String(repeating: "AB", count: 32), String(repeating: "a", count: 65),
                      String(repeating: "g", count: 64), "..%2F..%2Fetc%2Fpasswd"])
    func aNameThatIsNoHashIs404WithoutAskingTheDaemon(name: String) async {
        let (answer, asked) = await Self.answer(name) { Self.reply() }
        guard case .refused(let error) = answer else {
            Issue.record("served \(name)")
            return
        }
        #expect(error.status == 404)
        #expect(asked == 0)
    }

    /// The daemon's refusals, as `HostError` maps them: no such image or widget 404, not allowed 403, not running 503.
    @Test(arguments: [
        (ControlClientError.remote(ControlError.noSuchImage(widget: "w1", sha256: sha256)), 404),
        (ControlClientError.remote(ControlError(name: ControlError.Name.unknownWidget, parameters: [:])), 404),
        (ControlClientError.remote(ControlError(name: ControlError.Name.permissionDenied, parameters: [:])), 403),
        (ControlClientError.remote(ControlError(name: ControlError.Name.bufferFull, parameters: [:])), 503),
        (ControlClientError.daemonNotRunning(path: "/run/x", reason: "gone"), 503),
    ] as [(ControlClientError, Int)])
    func theDaemonsRefusalsKeepTheirStatus(error: ControlClientError, status: Int) async {
        let (answer, _) = await Self.answer { () throws(HostError) in throw HostError(error) }
        guard case .refused(let refusal) = answer else {
            Issue.record("served despite \(error)")
            return
        }
        #expect(refusal.status == status)
    }

    /// Bytes that are not what the daemon says they are never go out under its type.
    @Test func bytesThatAreNotWhatTheDaemonSaysAreRefused() async {
        let svg = Array(#"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>"#.utf8)
        let cases: [ImageMethod.Reply] = [
            Self.reply(svg, type: "image/png"),
            Self.reply(type: "image/jpeg"),
            Self.reply(type: "text/html"),
            Self.reply(byteCount: Self.png.count + 1),
            Self.reply(byteCount: 3, data: "not base64!"),
        ]
        for reply in cases {
            let (answer, _) = await Self.answer { reply }
            guard case .refused(let error) = answer else {
                Issue.record("served \(reply.image.contentType) \(reply.data.prefix(20))")
                continue
            }
            #expect(error.status == 502)
        }
    }

    @Test func facesDrawProvidedImagesFromTheWidgetsImageURL() throws {
        let views: JSONValue = .object([
            "version": .integer(1),
            "families": .object(["systemSmall": .object(["body": .object([
                "type": .string("image"), "value": .string("photo"), "source": .string("provided"),
                "size": .string("fill"), "label": .string("Photo")])])]),
        ])
        let faces = WidgetFaces(views: [ViewsMethod.KindViews(kind: "photo", views: views)])
        let images = ["cat.png": EntryImage(sha256: Self.sha256, contentType: "image/png", width: 4, height: 3,
                                            byteCount: 48)]
        let face = faces.face(kind: "photo", family: "systemSmall", date: Date(),
                              content: .object(["photo": .string("cat.png")]), images: images,
                              imageBaseURL: WidgetFaces.imagePrefix(widget: "w 1"), now: Date())
        #expect(face.html.contains("src=\"/images/w%201/\(Self.sha256)\" width=\"4\" height=\"3\" alt=\"Photo\""))
        #expect(face.problems.isEmpty)
        #expect(WidgetFaces.previewImagePrefix(kind: "photo/x") == "/kind-images/photo%2Fx/")
    }
}
