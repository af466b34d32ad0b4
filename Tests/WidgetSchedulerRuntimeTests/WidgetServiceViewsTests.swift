import Foundation
import Testing
import WidgetProtocol
import WidgetProviders
@testable import WidgetSchedulerRuntime

/// `Views` and `Timeline`'s family: what hosts need to draw a widget, as the manifests loaded it.
struct WidgetServiceViewsTests {
    private static let document = JSONValue.object([
        "version": .integer(1),
        "families": .object(["systemSmall": .object(["body": .object(["type": .string("spacer")])])]),
    ])

    private static func manifests() -> ManifestSet {
        var weather = WidgetServiceHarness.weather
        weather.assetsDirectory = "/usr/lib/widget-providers/weather/assets"
        weather.widgets[0].views = document
        return ManifestSet(manifests: [weather, WidgetServiceHarness.clockKind])
    }

    @Test func viewsListsTheKindsWithViewsAndTheirAssetFolder() throws {
        let harness = try WidgetServiceHarness()
        harness.service.replaceManifests(Self.manifests())
        #expect(try harness.service.views(kind: nil) == [
            ViewsMethod.KindViews(kind: "weather", views: Self.document,
                                  assets: "/usr/lib/widget-providers/weather/assets"),
        ])
        #expect(try harness.service.views(kind: "weather").count == 1)
        #expect(try harness.service.views(kind: "clock").isEmpty)
        #expect(throws: ControlError.unknownKind("news")) { try harness.service.views(kind: "news") }
    }

    @Test func theTimelineSaysTheWidgetsFamily() throws {
        let harness = try WidgetServiceHarness()
        var result: Result<String, ControlError>?
        harness.service.add(kind: "clock", family: "systemMedium", parameters: [:]) { result = $0 }
        let id = try #require(try result?.get())
        #expect(try harness.service.timeline(id: id).family == "systemMedium")
    }
}
