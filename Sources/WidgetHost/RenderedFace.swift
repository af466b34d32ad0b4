import Foundation
import WidgetViews

/// A widget's face as markup, with the URLs a tap on it may open.
public struct RenderedFace: Sendable, Hashable {
    /// HTML from WidgetViews' renderer: every text from the provider escaped, no script, no remote resource.
    public var html: String
    /// The URLs the face links to (its `widgetURL` first): the only ones a tap may ask the host to open.
    public var urls: [String]
    /// What the entry lacked for the view, reported once per entry.
    public var problems: [RenderProblem]

    public init(html: String, urls: [String] = [], problems: [RenderProblem] = []) {
        self.html = html
        self.urls = urls
        self.problems = problems
    }
}
