import Testing
import WidgetProtocol
@testable import WidgetViews

/// Every family and every element, drawn as HTML in both color schemes and as text with and without color, compared
/// byte for byte with Tests/WidgetViewsTests/Snapshots (WIDGET_VIEWS_RECORD=1 re-records).
@Suite struct SnapshotTests {
    private static let assetBase = "/assets/weather/"

    @Test(arguments: WidgetFamily.allCases)
    func everyFamilyMatchesItsSnapshots(family: WidgetFamily) throws {
        let document = try Fixtures.parsedDocument()
        let view = try #require(document.view(for: family))
        let widget = Resolver.resolve(view, family: family, content: Fixtures.content, context: Fixtures.context())
        for scheme in [HTMLRenderer.ColorScheme.light, .dark] {
            let html = HTMLRenderer.render(widget, options: .init(colorScheme: scheme, assetBaseURL: Self.assetBase))
            Snapshot.expect(html, named: "family-\(family.rawValue).\(scheme.rawValue).html")
        }
        let title = "w1 \u{00B7} weather"
        Snapshot.expect(TextRenderer.render(widget, options: .init(color: false, title: title)).joined(separator: "\n"),
                        named: "family-\(family.rawValue).txt")
        Snapshot.expect(TextRenderer.render(widget, options: .init(color: true, title: title)).joined(separator: "\n"),
                        named: "family-\(family.rawValue).ansi.txt")
    }

    @Test(arguments: WidgetFamily.allCases)
    func everyFamilyHasAPlaceholderForm(family: WidgetFamily) throws {
        let view = try #require(try Fixtures.parsedDocument().view(for: family))
        let widget = Resolver.resolve(view, family: family, content: Fixtures.content,
                                      context: Fixtures.context(placeholder: true))
        Snapshot.expect(HTMLRenderer.render(widget, options: .init(colorScheme: .light)),
                        named: "placeholder-\(family.rawValue).html")
        Snapshot.expect(TextRenderer.render(widget).joined(separator: "\n"), named: "placeholder-\(family.rawValue).txt")
        #expect(widget.nextChange == nil, "a placeholder never ticks")
    }

    @Test(arguments: Fixtures.elements.map(\.name))
    func everyElementMatchesItsSnapshots(name: String) throws {
        let json = try #require(Fixtures.elements.first { $0.name == name }?.json)
        let view = try Fixtures.single(json)
        let widget = Resolver.resolve(view, family: .systemMedium, content: Fixtures.content,
                                      context: Fixtures.context())
        let html = HTMLRenderer.render(widget, options: .init(colorScheme: .light, assetBaseURL: Self.assetBase))
        let boxed = TextRenderer.render(widget, options: .init(color: true)).joined(separator: "\n")
        let inline = InlineRenderer.line(widget)
        let problems = widget.problems.map(\.description).joined(separator: "\n")
        Snapshot.expect([html, boxed, inline, problems].joined(separator: "\n---\n"), named: "element-\(name).txt")
    }

    @Test func theStylesheetMatchesItsSnapshot() {
        Snapshot.expect(WidgetStylesheet.css, named: "widget-views.css")
    }
}
