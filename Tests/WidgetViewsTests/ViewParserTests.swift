import Testing
import WidgetProtocol
@testable import WidgetViews

private func issues(_ text: String, options: ViewParserOptions = ViewParserOptions()) -> [String] {
    switch ViewParser.parse(Fixtures.json(text), options: options) {
    case .success: return []
    case .failure(let failure): return failure.issues.map(\.description)
    }
}

/// A document whose systemMedium body is `body`.
private func medium(_ body: String) -> String {
    #"{"version": 1, "families": {"systemMedium": {"body": \#(body)}}}"#
}

@Suite struct ViewParserTests {
    @Test func theFixtureDocumentParsesWithEveryFamily() throws {
        let document = try Fixtures.parsedDocument()
        #expect(document.sortedFamilies == WidgetFamily.allCases)
        let small = try #require(document.view(for: .systemSmall))
        #expect(small.url?.text == "weather://city/{city}")
        #expect(small.background == .gradient(from: .blue, to: .indigo, direction: .down))
        #expect(small.padding == FamilyView.defaultPadding)
        #expect(document.view(for: .systemLarge)?.padding == 12)
    }

    @Test func elementsParseToTheirModel() throws {
        let view = try Fixtures.single(#"""
            {"type": "vstack", "alignment": "leading", "spacing": 4, "children": [
              {"type": "text", "value": "weather.temperature", "format": "unit", "unit": "°C", "decimals": 1,
               "font": "title", "lineLimit": 1, "color": "orange"},
              {"type": "date", "value": "@date", "style": "relative"},
              {"type": "progress", "value": "done", "max": "total", "label": "Done"},
              {"type": "image", "value": "icon", "source": "symbol", "size": "small"},
              {"type": "spacer", "minLength": 8}
            ]}
            """#)
        guard case .stack(let stack) = view.body else { Issue.record("not a stack"); return }
        #expect(stack.axis == .vertical && stack.spacing == 4 && stack.alignment.horizontal == .leading)
        #expect(stack.children[0] == .text(TextNode(
            source: .path(try #require(ContentPath("weather.temperature"))), format: .unit("°C", decimals: 1),
            font: .title, lineLimit: 1, color: .orange)))
        #expect(stack.children[1] == .date(DateNode(source: .path(try #require(ContentPath("@date"))),
                                                    style: .relative)))
        #expect(stack.children[2] == .gauge(GaugeNode(
            style: .linear, value: .path(try #require(ContentPath("done"))), minimum: .literal(0),
            maximum: .path(try #require(ContentPath("total"))), label: "Done")))
        #expect(stack.children[3] == .image(ImageNode(source: .boundSymbol(try #require(ContentPath("icon"))),
                                                      size: .small)))
        #expect(stack.children[4] == .spacer(minLength: 8))
    }

    /// Each bad document and the problems it must be refused with, each naming its path in the document.
    @Test(arguments: [
        (#"[]"#, [#"expected a JSON object {"version": 1, "families": {...}}, found []"#]),
        (#"{"families": {"systemSmall": {"body": {"type": "spacer"}}}}"#,
         ["version: expected 1, the schema version, found nothing"]),
        (#"{"version": 2, "families": {"systemSmall": {"body": {"type": "spacer"}}}}"#,
         ["version: expected 1 (the only schema version this build reads), found 2"]),
        (#"{"version": 1, "families": {}}"#,
         [#"families: expected an object with a view for each family, such as {"systemSmall": {...}}, found {}"#]),
        (#"{"version": 1, "colour": 1, "families": {"systemSmall": {"body": {"type": "spacer"}}}}"#,
         ["colour: unknown key (expected one of: $schema, version, families)"]),
        (#"{"version": 1, "families": {"systemHuge": {"body": {"type": "spacer"}}}}"#,
         [#"families.systemHuge: expected a family name (systemSmall, systemMedium, systemLarge, systemExtraLarge, accessoryCircular, accessoryRectangular, accessoryInline), found "systemHuge""#]),
        (#"{"version": 1, "families": {"systemSmall": {}}}"#,
         ["families.systemSmall.body: expected the view's root element, found nothing"]),
        (medium(#"{"type": "vstack", "children": [{"type": "txt"}]}"#),
         [#"families.systemMedium.body.children[0].type: expected one of vstack, hstack, zstack, spacer, text, date, gauge, progress, image, link, if, found "txt""#]),
        (medium(#"{"type": "text", "value": "a..b"}"#),
         [#"families.systemMedium.body.value: expected a content path such as "weather.temperature" (names of [A-Za-z0-9_-] joined by dots) or "@date", found "a..b""#]),
        (medium(#"{"type": "text", "text": "x", "value": "y"}"#),
         [#"families.systemMedium.body: expected "text" (literal words) or "value" (a content path), not both"#]),
        (medium(#"{"type": "text", "text": "x", "format": "number"}"#),
         [#"families.systemMedium.body.format: a format applies to a bound "value", not to a literal "text""#]),
        (medium(#"{"type": "text", "value": "x", "format": "unit"}"#),
         [#"families.systemMedium.body.unit: expected the unit, such as "°C", found nothing"#]),
        (medium(#"{"type": "text", "value": "x", "format": "percent", "grouping": true}"#),
         [#"families.systemMedium.body.grouping: does not apply to the "percent" format"#]),
        (medium(#"{"type": "text", "value": "x", "decimals": 2}"#),
         [#"families.systemMedium.body.decimals: applies only with a "format""#]),
        (medium(#"{"type": "text", "value": "x", "lineLimit": 0}"#),
         ["families.systemMedium.body.lineLimit: expected an integer from 1 to 10, found 0"]),
        (medium(##"{"type": "text", "value": "x", "color": "#ff0000"}"##),
         [##"families.systemMedium.body.color: expected a color name (primary, secondary, red, orange, yellow, green, mint, teal, cyan, blue, indigo, purple, pink, brown, gray), found "#ff0000""##]),
        (medium(#"{"type": "hstack", "spacing": 40, "children": []}"#),
         ["families.systemMedium.body.spacing: expected an integer from 0 to 32, found 40"]),
        (medium(#"{"type": "hstack", "alignment": "leading", "children": []}"#),
         [#"families.systemMedium.body.alignment: expected top | center | bottom, found "leading""#]),
        (medium(#"{"type": "date", "value": "d"}"#),
         ["families.systemMedium.body.style: expected relative | timer | time | date, found nothing"]),
        (medium(#"{"type": "date", "now": true, "style": "timer"}"#),
         [#"families.systemMedium.body.style: a "timer" text of "now" would never change; use "time" or "date""#]),
        (medium(#"{"type": "date", "value": "d", "style": "date", "seconds": true}"#),
         [#"families.systemMedium.body.seconds: applies only to the "time" style"#]),
        (medium(#"{"type": "gauge", "value": "v", "min": 5, "max": 5}"#),
         ["families.systemMedium.body.max: expected a maximum above the minimum (5), found 5"]),
        (medium(#"{"type": "gauge"}"#),
         ["families.systemMedium.body.value: expected a number or a content path, found nothing"]),
        (medium(#"{"type": "image", "symbol": "sun", "asset": "a.png"}"#),
         [#"families.systemMedium.body: expected one of "asset" (a file in the asset folder), "symbol" (a symbol name) or "value" (a content path), found asset and symbol"#]),
        (medium(#"{"type": "image", "symbol": "sunny"}"#),
         [#"families.systemMedium.body.symbol: expected a symbol of the fixed set (docs/views.md lists them), found "sunny""#]),
        (medium(#"{"type": "image", "asset": "../secret.png"}"#),
         [#"families.systemMedium.body.asset: expected a path inside the asset folder made of names of [A-Za-z0-9._-] (no "..", no leading "/" or "."), found "../secret.png""#]),
        (medium(#"{"type": "image", "asset": "logo.svg"}"#),
         [#"families.systemMedium.body.asset: expected a PNG, JPEG or WebP file (.png, .jpg, .jpeg, .webp), found "logo.svg""#]),
        (medium(#"{"type": "link", "url": "javascript:alert(1)", "content": {"type": "spacer"}}"#),
         [#"families.systemMedium.body.url: the scheme "javascript:" is not allowed in a view"#]),
        (medium(#"{"type": "link", "url": "https://x/ y", "content": {"type": "spacer"}}"#),
         ["families.systemMedium.body.url: expected a URL without spaces, quotes, angle brackets or control characters (percent-encode them)"]),
        (medium(#"{"type": "if", "present": "x"}"#),
         ["families.systemMedium.body.then: expected the element shown when the field is present, found nothing"]),
        (#"{"version": 1, "families": {"systemSmall": {"body": {"type": "link", "url": "a:b", "content": {"type": "spacer"}}}}}"#,
         [#"families.systemSmall.body: systemSmall answers taps only through the view's "url" (WidgetKit's widgetURL): a link here would never open"#]),
        (#"{"version": 1, "families": {"systemSmall": {"url": "data:text/html,x", "body": {"type": "spacer"}}}}"#,
         [#"families.systemSmall.url: the scheme "data:" is not allowed in a view"#]),
        (#"{"version": 1, "families": {"systemSmall": {"background": {"gradient": ["red"]}, "body": {"type": "spacer"}}}}"#,
         [#"families.systemSmall.background.gradient: expected two color names [from, to], found ["red"]"#]),
    ] as [(String, [String])])
    func badDocumentsAreRefusedNamingThePath(document: String, expected: [String]) {
        #expect(issues(document) == expected)
    }

    @Test func everyProblemOfADocumentIsReportedNotJustTheFirst() {
        let found = issues(medium(#"""
            {"type": "vstack", "children": [{"type": "text"}, {"type": "gauge", "value": true}, {"type": "nope"}]}
            """#))
        #expect(found.count == 3)
        #expect(found.allSatisfy { $0.hasPrefix("families.systemMedium.body.children[") })
    }

    @Test func aFamilyTheKindDoesNotDeclareIsRefused() {
        let options = ViewParserOptions(declaredFamilies: ["systemSmall", "systemLarge"])
        #expect(issues(medium(#"{"type": "spacer"}"#), options: options) == [
            "families.systemMedium: the kind does not declare the family systemMedium (its families: systemSmall, "
                + "systemLarge); add it to \"families\" or remove this view",
        ])
    }

    @Test func assetsAreCheckedAgainstTheAssetFolder() {
        let options = ViewParserOptions(hasAssetFolder: true) { name in
            name == "sun.png" ? nil : "no file \(name) in the asset folder"
        }
        #expect(issues(medium(#"{"type": "image", "asset": "sun.png"}"#), options: options).isEmpty)
        #expect(issues(medium(#"{"type": "image", "asset": "moon.png"}"#), options: options) == [
            "families.systemMedium.body.asset: no file moon.png in the asset folder",
        ])
        #expect(issues(medium(#"{"type": "image", "asset": "sun.png"}"#),
                       options: ViewParserOptions(hasAssetFolder: false)) == [
            #"families.systemMedium.body.asset: the manifest names no asset folder ("assets") to find "sun.png" in"#,
        ])
    }

    @Test func aTreeTooDeepOrTooLargeIsRefused() {
        var deep = #"{"type": "spacer"}"#
        for _ in 0..<ViewParser.maximumDepth { deep = #"{"type": "vstack", "children": [\#(deep)]}"# }
        #expect(issues(medium(deep)).count == 1)
        let many = Array(repeating: #"{"type": "spacer"}"#, count: ViewParser.maximumElements)
            .joined(separator: ",")
        #expect(issues(medium(#"{"type": "vstack", "children": [\#(many)]}"#)) == [
            "families.systemMedium.body.children[499]: expected at most 500 elements in one family's view",
        ])
    }
}
