import Foundation
import WidgetProtocol
import WidgetViews

/// Draws widgets' faces with their kinds' views: WidgetViews' resolver and HTML renderer, the library `widgetctl show`
/// draws with, so a widget looks the same in a terminal and on the page. A kind without a view for a family is drawn
/// with the library's fallback view; before a widget's first timeline, the placeholder form. Pure: the host passes
/// the views it read from the daemon (`Views`) and the moment.
public struct WidgetFaces: Sendable {
    /// Each kind's parsed views.
    var documents: [String: ViewDocument]
    /// Kinds whose views could not be read, with why (the daemon validated them, so this means a newer schema).
    public private(set) var unreadable: [String: String]
    /// Kinds with an asset folder, by kind: the folder's path.
    public private(set) var assetFolders: [String: String]
    var timeZone: TimeZone

    /// The URL prefix the host serves a kind's asset folder under.
    public static func assetPrefix(kind: String) -> String {
        "/kind-assets/" + (kind.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"]))
            ?? kind) + "/"
    }

    /// The URL prefix the host serves a widget's provided images under (`/images/WIDGET/SHA256`).
    public static func imagePrefix(widget: String) -> String {
        "/images/" + pathSegment(widget) + "/"
    }

    /// The URL prefix the host serves the images of a kind's gallery previews under (`/kind-images/KIND/SHA256`).
    public static func previewImagePrefix(kind: String) -> String {
        "/kind-images/" + pathSegment(kind) + "/"
    }

    private static func pathSegment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? text
    }

    public init(views: [ViewsMethod.KindViews] = [], timeZone: TimeZone = .current) {
        var documents: [String: ViewDocument] = [:]
        var unreadable: [String: String] = [:]
        var assetFolders: [String: String] = [:]
        for kind in views {
            do {
                documents[kind.kind] = try ViewDocument(json: kind.views)
            } catch {
                unreadable[kind.kind] = "\(error)"
            }
            if let folder = kind.assets { assetFolders[kind.kind] = folder }
        }
        self.documents = documents
        self.unreadable = unreadable
        self.assetFolders = assetFolders
        self.timeZone = timeZone
    }

    /// `kind`'s face in `family` for an entry of `content` dated `date` at `now`; `content` nil draws the
    /// placeholder form. The entry's provided `images` are drawn from `imageBaseURL` (`imagePrefix(widget:)`, or
    /// `previewImagePrefix(kind:)` for a preview).
    public func face(
        kind: String, family name: String, date: Date?, content: JSONValue?, images: [String: EntryImage]? = nil,
        imageBaseURL: String? = nil, now: Date
    ) -> RenderedFace {
        let family = WidgetFamily(rawValue: name) ?? .systemSmall
        let view = documents[kind]?.view(for: family) ?? FallbackView.view(for: content)
        let context = RenderContext(now: now, timeZone: timeZone, placeholder: content == nil, entryDate: date,
                                    images: images ?? [:])
        let options = HTMLRenderer.Options(assetBaseURL: assetFolders[kind] == nil ? nil : Self.assetPrefix(kind: kind),
                                           imageBaseURL: imageBaseURL)
        let rendered = HTMLRenderer.render(view, family: family, content: content, context: context, options: options)
        var urls: [String] = []
        if let url = rendered.widget.url { urls.append(url) }
        Self.collectLinks(rendered.widget.body, into: &urls)
        return RenderedFace(html: rendered.html, urls: urls.filter(HTML.isTappable), problems: rendered.widget.problems)
    }

    static func collectLinks(_ node: ResolvedNode, into urls: inout [String]) {
        switch node {
        case .stack(let stack):
            for child in stack.children { collectLinks(child, into: &urls) }
        case .link(let url, let content):
            if let url, !urls.contains(url) { urls.append(url) }
            collectLinks(content, into: &urls)
        case .spacer, .text, .gauge, .image, .empty:
            break
        }
    }
}
