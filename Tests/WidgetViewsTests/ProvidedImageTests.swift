import Foundation
import Testing
import WidgetProtocol
@testable import WidgetViews

/// `image` elements of source `provided`: pictures the provider wrote for the entry, found in its `images` map by the
/// file name its content names, and drawn from the host's image URL (docs/views.md).
@Suite struct ProvidedImageTests {
    static let photo = EntryImage(
        sha256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", contentType: "image/jpeg",
        width: 640, height: 480, byteCount: 51234)
    static let content = Fixtures.json(#"""
        {"photo": "harbour.jpg", "caption": "The harbour at dawn", "taken": "2026-11-25T07:12:00Z"}
        """#)
    static let images = ["harbour.jpg": photo]

    /// The photo's metadata with some of it changed.
    static func variant(sha256: String? = nil, width: Int? = nil, height: Int? = nil) -> EntryImage {
        EntryImage(sha256: sha256 ?? photo.sha256, contentType: photo.contentType, width: width ?? photo.width,
                   height: height ?? photo.height, byteCount: photo.byteCount)
    }
    static let imageBase = "/images/w1/"

    static func context(placeholder: Bool = false, images: [String: EntryImage] = images) -> RenderContext {
        RenderContext(now: Fixtures.now, placeholder: placeholder, entryDate: Fixtures.entryDate, images: images)
    }

    /// A photo of the day in every family: the picture fills the room its stack leaves, the caption and date below.
    static let document = Fixtures.json(#"""
        {
          "version": 1,
          "families": {
            "systemSmall": {"padding": 8, "body": {"type": "vstack", "spacing": 4, "children": [
              {"type": "image", "value": "photo", "source": "provided", "size": "fill", "label": "Photo of the day"},
              {"type": "text", "value": "caption", "font": "caption", "lineLimit": 1}
            ]}},
            "systemMedium": {"padding": 8, "body": {"type": "hstack", "spacing": 12, "children": [
              {"type": "image", "value": "photo", "source": "provided", "size": "fill", "label": "Photo of the day"},
              {"type": "vstack", "alignment": "leading", "children": [
                {"type": "text", "value": "caption", "font": "headline", "lineLimit": 3},
                {"type": "date", "value": "taken", "style": "date", "font": "caption", "color": "secondary"}
              ]}
            ]}},
            "systemLarge": {"padding": 12, "body": {"type": "vstack", "alignment": "leading", "children": [
              {"type": "image", "value": "photo", "source": "provided", "size": "fill", "label": "Photo of the day"},
              {"type": "text", "value": "caption", "font": "headline", "lineLimit": 2},
              {"type": "date", "value": "taken", "style": "date", "font": "caption", "color": "secondary"}
            ]}},
            "systemExtraLarge": {"padding": 12, "body": {"type": "zstack", "alignment": "bottomLeading", "children": [
              {"type": "image", "value": "photo", "source": "provided", "size": "fill", "label": "Photo of the day"},
              {"type": "text", "value": "caption", "font": "title", "color": "primary"}
            ]}},
            "accessoryCircular": {"body":
              {"type": "image", "value": "photo", "source": "provided", "size": "fill", "label": "Photo of the day"}},
            "accessoryRectangular": {"body": {"type": "hstack", "spacing": 4, "children": [
              {"type": "image", "value": "photo", "source": "provided", "size": "xlarge", "label": "Photo of the day"},
              {"type": "text", "value": "caption", "font": "caption", "lineLimit": 2}
            ]}},
            "accessoryInline": {"body": {"type": "hstack", "children": [
              {"type": "image", "value": "photo", "source": "provided", "size": "small"},
              {"type": "text", "value": "caption"}
            ]}}
          }
        }
        """#)

    private func element(_ json: String, images: [String: EntryImage] = images,
                         content: JSONValue = content) throws -> ResolvedWidget {
        Resolver.resolve(try Fixtures.single(json), family: .systemMedium, content: content,
                         context: Self.context(images: images))
    }

    private func picture(_ widget: ResolvedWidget) -> ResolvedImage.Picture? {
        if case .image(let image) = widget.body { return image.picture }
        return nil
    }

    // MARK: - Parsing

    @Test func aProvidedImageParsesToItsModel() throws {
        let view = try Fixtures.single(
            #"{"type": "image", "value": "photo", "source": "provided", "size": "fill", "label": "Photo"}"#)
        #expect(view.body == .image(ImageNode(source: .provided(try #require(ContentPath("photo"))), size: .fill,
                                              label: "Photo")))
        // A kind without an asset folder may show provided images: they come from the entry, not the folder.
        let parsed = ViewParser.parse(Fixtures.json(#"""
            {"version": 1, "families": {"systemSmall": {"body":
             {"type": "image", "value": "photo", "source": "provided"}}}}
            """#), options: ViewParserOptions(hasAssetFolder: false))
        #expect((try? parsed.get()) != nil)
    }

    @Test(arguments: [
        (#"{"type": "image", "value": "photo", "source": "url"}"#,
         #"families.systemMedium.body.source: expected "symbol", "asset" or "provided" "#
             + #"(an image the provider wrote for the entry), found "url""#),
        (#"{"type": "image", "symbol": "sun", "size": "fill"}"#,
         #"families.systemMedium.body.size: "fill" is for pictures (an asset or a provided image); "#
             + #"a symbol has a size of small | medium | large | xlarge"#),
        (#"{"type": "image", "value": "photo", "size": "fill"}"#,
         #"families.systemMedium.body.size: "fill" is for pictures (an asset or a provided image); "#
             + #"a symbol has a size of small | medium | large | xlarge"#),
        (#"{"type": "image", "value": "photo", "source": "provided", "size": "huge"}"#,
         #"families.systemMedium.body.size: expected small | medium | large | xlarge | fill, found "huge""#),
        (#"{"type": "image", "value": "../photo", "source": "provided"}"#,
         #"families.systemMedium.body.value: expected a content path such as "weather.temperature" "#
             + #"(names of [A-Za-z0-9_-] joined by dots) or "@date", found "../photo""#),
    ] as [(String, String)])
    func aBadProvidedImageIsRefusedNamingThePath(body: String, expected: String) {
        let document = #"{"version": 1, "families": {"systemMedium": {"body": \#(body)}}}"#
        guard case .failure(let failure) = ViewParser.parse(Fixtures.json(document)) else {
            Issue.record("accepted: \(body)")
            return
        }
        #expect(failure.issues.map(\.description) == [expected])
    }

    // MARK: - Resolving

    @Test func theResolverFindsTheEntrysImageByItsFileName() throws {
        let widget = try element(#"{"type": "image", "value": "photo", "source": "provided"}"#)
        #expect(picture(widget) == .provided(name: "harbour.jpg", image: Self.photo))
        #expect(widget.problems.isEmpty)
    }

    /// A name the entry's images lack, a value that is no name, or metadata a page cannot use: a placeholder and one
    /// problem, never a crash.
    @Test(arguments: [
        (#"{"photo": "other.jpg"}"#, ProvidedImageTests.images, #"photo: the entry has no image "other.jpg""#),
        (#"{"photo": "harbour.jpg"}"#, [:], #"photo: the entry has no image "harbour.jpg""#),
        (#"{"photo": 42}"#, ProvidedImageTests.images,
         "photo: expected the file name of an image the provider wrote, found 42"),
        (#"{}"#, ProvidedImageTests.images, "photo: missing"),
        (#"{"photo": "harbour.jpg"}"#, ["harbour.jpg": ProvidedImageTests.variant(sha256: "../../etc/passwd")],
         #"photo: the image "harbour.jpg" has unreadable metadata"#),
        (#"{"photo": "harbour.jpg"}"#,
         ["harbour.jpg": ProvidedImageTests.variant(sha256: ProvidedImageTests.photo.sha256.uppercased())],
         #"photo: the image "harbour.jpg" has unreadable metadata"#),
        (#"{"photo": "harbour.jpg"}"#, ["harbour.jpg": ProvidedImageTests.variant(width: 0, height: -5)],
         #"photo: the image "harbour.jpg" has unreadable metadata"#),
        (#"{"photo": "harbour.jpg"}"#, ["harbour.jpg": ProvidedImageTests.variant(width: 20000)],
         #"photo: the image "harbour.jpg" has unreadable metadata"#),
    ] as [(String, [String: EntryImage], String)])
    func anUnusableImageIsAPlaceholderAndAProblem(content: String, images: [String: EntryImage], problem: String)
        throws {
        let widget = try element(#"{"type": "image", "value": "photo", "source": "provided"}"#, images: images,
                                 content: Fixtures.json(content))
        #expect(picture(widget) == .missing)
        #expect(widget.problems.map(\.description) == [problem])
        let html = HTMLRenderer.render(widget, options: .init(imageBaseURL: Self.imageBase))
        #expect(!html.contains("<img"))
    }

    @Test func thePlaceholderFormShowsNoImage() throws {
        let view = try Fixtures.single(#"{"type": "image", "value": "photo", "source": "provided"}"#)
        let widget = Resolver.resolve(view, family: .systemMedium, content: Self.content,
                                      context: Self.context(placeholder: true))
        #expect(picture(widget) == .missing)
        #expect(widget.problems.isEmpty)
    }

    // MARK: - Drawing

    @Test func htmlDrawsAnImgFromTheImageURLWithItsSizeAndLabel() throws {
        let widget = try element(
            #"{"type": "image", "value": "photo", "source": "provided", "label": "A \"quay\" <b>"}"#)
        let html = HTMLRenderer.render(widget, options: .init(imageBaseURL: Self.imageBase))
        #expect(html.contains(#"<img class="wv-img wv-img-medium" src="/images/w1/\#(Self.photo.sha256)" "#
            + #"width="640" height="480" alt="A &quot;quay&quot; &lt;b&gt;">"#))
        // Without an image URL the host cannot serve it: a placeholder, as for assets without an asset URL.
        #expect(!HTMLRenderer.render(widget).contains("<img"))
    }

    @Test func aFillingPictureTakesTheRoomInBothRenderers() throws {
        let widget = try element(#"""
            {"type": "vstack", "children": [{"type": "image", "value": "photo", "source": "provided", "size": "fill"},
             {"type": "text", "text": "below"}]}
            """#)
        #expect(widget.body.expands(along: .vertical) && widget.body.expands(along: .horizontal))
        let html = HTMLRenderer.render(widget, options: .init(imageBaseURL: Self.imageBase))
        #expect(html.contains(#"<img class="wv-img wv-img-fill wv-xh wv-xv""#))
        let lines = TextRenderer.render(widget, options: .init(color: false))
        let row = try #require(lines.firstIndex { $0.contains("[image harbour.jpg 640\u{00D7}480]") })
        let below = try #require(lines.firstIndex { $0.contains("below") })
        // The picture's room is the box's height less the text's row; its words sit in the middle of it.
        #expect(below == lines.count - 2, "the text is pushed to the bottom: \(lines)")
        #expect(row > 1 && row < below - 1, "the words are in the middle of the picture's room: \(lines)")
    }

    @Test func textNamesTheImageAndItsSizeShorteningToFit() {
        let image = ResolvedImage(picture: .provided(name: "harbour.jpg", image: Self.photo), size: .medium,
                                  label: nil, color: nil)
        #expect(TextLayout.pictureText(image, width: 40) == "[image harbour.jpg 640\u{00D7}480]")
        #expect(TextLayout.pictureText(image, width: 22) == "[harbour.jpg 640\u{00D7}480]")
        #expect(TextLayout.pictureText(image, width: 10) == "[harbour.\u{2026}")
    }

    @Test func aNameWithTerminalEscapesIsSanitizedInText() throws {
        let hostile = "\u{1B}]0;owned\u{07}\u{202E}x.png"
        let widget = try element(#"{"type": "image", "value": "photo", "source": "provided"}"#,
                                 images: [hostile: Self.photo],
                                 content: .object(["photo": .string(hostile)]))
        let text = TextRenderer.render(widget, options: .init(color: false)).joined(separator: "\n")
        #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E })
        #expect(text.contains("]0;owned"))
        #expect(!InlineRenderer.line(widget).unicodeScalars.contains { $0.value == 0x1B })
    }

    // MARK: - Snapshots

    @Test(arguments: WidgetFamily.allCases)
    func everyFamilyOfAPhotoMatchesItsSnapshots(family: WidgetFamily) throws {
        let view = try #require(try ViewDocument(json: Self.document).view(for: family))
        let widget = Resolver.resolve(view, family: family, content: Self.content, context: Self.context())
        #expect(widget.problems.isEmpty)
        for scheme in [HTMLRenderer.ColorScheme.light, .dark] {
            let html = HTMLRenderer.render(widget, options: .init(colorScheme: scheme, imageBaseURL: Self.imageBase))
            #expect(html.contains("src=\"\(Self.imageBase)\(Self.photo.sha256)\""))
            Snapshot.expect(html, named: "photo-\(family.rawValue).\(scheme.rawValue).html")
        }
        Snapshot.expect(TextRenderer.render(widget, options: .init(color: false, title: "w1 \u{00B7} photo"))
            .joined(separator: "\n"), named: "photo-\(family.rawValue).txt")
        let placeholder = Resolver.resolve(view, family: family, content: Self.content,
                                           context: Self.context(placeholder: true))
        Snapshot.expect(HTMLRenderer.render(placeholder, options: .init(colorScheme: .light,
                                                                         imageBaseURL: Self.imageBase)),
                        named: "photo-placeholder-\(family.rawValue).html")
    }
}
