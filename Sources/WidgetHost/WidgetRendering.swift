import Foundation
import WidgetProtocol

/// A widget's face as markup, with the URLs a tap on it may open.
public struct RenderedFace: Sendable, Hashable {
    /// HTML in which every text from the provider is escaped; no script, no remote resource.
    public var html: String
    /// The URLs the face links to (its `widgetURL` first): the only ones a tap may ask the host to open.
    public var urls: [String]

    public init(html: String, urls: [String] = []) {
        self.html = html
        self.urls = urls
    }
}

/// What draws a widget's face for the page: the kind's view rendered with an entry, or its placeholder form before
/// the first timeline (content nil). Pure: no I/O, so every host draws the same.
public protocol WidgetRendering: Sendable {
    func render(kind: KindsMethod.Kind?, family: String, date: Date?, content: JSONValue?) -> RenderedFace
}
