import Foundation
import Testing
import WidgetCenter
import WidgetProtocol
import WidgetSchedulerTestKit

/// The app's side through the real daemon: the `WidgetCenter` library in this process, and the `weather-app`
/// example built on it, as root and as a stranger.
@Suite("WidgetCenter against the real daemon")
struct WidgetCenterAppTests {
    /// A weather kind reading the group "weather", with no floor, so that each reload runs.
    private static func weatherWorld() throws -> (DaemonWorld, String) {
        let world = try DaemonWorld(config: "minimum-interval = 0\n")
        try world.addScriptedKind("weather", manifest: #"group = "weather""#, widget: """
            families = ["systemSmall", "systemMedium"]
            [widget.parameters.units]
            type = "string"
            default = "metric"
            """)
        try world.start()
        let id = try world.add("weather")
        try world.waitUntilIdle(id)
        return (world, id)
    }

    /// The group data the widget's current entry was made from.
    private static func shownData(_ world: DaemonWorld, _ id: String) throws -> JSONValue? {
        try world.summary(id).currentEntry?.content.objectValue?["data"]
    }

    @Test("an app writes the group, reloads the kind, and the widget shows what it wrote")
    func writeThenReloadReachesTheWidget() async throws {
        let (world, id) = try Self.weatherWorld()
        let defaults = WidgetGroupDefaults(suiteName: "weather", socketPath: world.socketPath)
        let center = WidgetCenter(socketPath: world.socketPath)

        try defaults.set("Oslo", forKey: "location")
        #expect(try defaults.string(forKey: "location") == "Oslo")
        let decisions = try center.reloadTimelines(ofKind: "weather")
        #expect(decisions.map(\.widgetID) == [id])
        #expect(decisions.first?.outcome == .ran, "\(decisions)")
        _ = try eventually("the widget to show Oslo") {
            try Self.shownData(world, id) == .object(["location": .string("Oslo")]) ? true : nil
        }

        let written = try defaults.set(Data("Lyon".utf8), forKey: "location", reloadingKinds: ["weather"])
        #expect(written.map(\.widgetID) == [id])
        _ = try eventually("the widget to show Lyon") {
            try Self.shownData(world, id) == .object(["location": .string("Lyon")]) ? true : nil
        }
        #expect(try defaults.dictionaryRepresentation() == ["location": "Lyon"])
        try defaults.removeObject(forKey: "location")
        try defaults.removeObject(forKey: "location")
        #expect(try defaults.string(forKey: "location") == nil)
        #expect(try defaults.dictionaryRepresentation().isEmpty)

        let widgets = try await center.currentConfigurations()
        #expect(widgets == [WidgetInfo(id: id, kind: "weather", family: "systemSmall",
                                       configuration: ["units": .string("metric")])])
        #expect(try center.reloadAllTimelines().map(\.widgetID) == [id])
    }

    @Test("the daemon's refusals reach the app typed and in the daemon's words")
    func refusalsAreTyped() throws {
        let (world, _) = try Self.weatherWorld()
        let center = WidgetCenter(socketPath: world.socketPath)
        #expect(throws: WidgetCenterError.unknownKind("wether")) { try center.reloadTimelines(ofKind: "wether") }
        let defaults = WidgetGroupDefaults(suiteName: "weather", socketPath: world.socketPath)
        do {
            try defaults.set("x", forKey: "../escape")
            Issue.record("an escaping key was stored")
        } catch {
            guard case .invalidParameter(let parameter, let reason) = error else {
                Issue.record("expected invalidParameter, got \(error)")
                return
            }
            #expect(parameter == "key")
            #expect(reason.contains(#"got "../escape""#), "\(reason)")
        }
        // The first kind is checked before the write: nothing is stored.
        #expect(throws: WidgetCenterError.unknownKind("radar")) {
            try defaults.set("Oslo", forKey: "location", reloadingKinds: ["radar", "weather"])
        }
        #expect(try defaults.string(forKey: "location") == nil)
        world.stopDaemon()
        #expect {
            try center.reloadAllTimelines()
        } throws: { error in
            guard case .daemonNotRunning(let socket, _)? = error as? WidgetCenterError else { return false }
            return socket == world.socketPath
        }
    }

    @Test("the weather-app example saves the location and reports each widget's decision; a stranger is refused")
    func weatherAppExample() throws {
        let (world, id) = try Self.weatherWorld()
        let app = try BuiltProducts.executable("weather-app")
        let saved = try world.run([app, "Oslo"]).wait()
        #expect(saved.status == 0, "\(saved)")
        #expect(saved.standardOutput.hasPrefix("\(id): ran at "), "\(saved)")
        #expect(saved.standardOutput.filter { $0 == "\n" }.count == 1, "one widget, one line: \(saved)")
        _ = try eventually("the widget to show Oslo") {
            try Self.shownData(world, id) == .object(["location": .string("Oslo")]) ? true : nil
        }

        let refused = try world.run([app, "Rome"], as: .nobody).wait()
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.standardOutput.isEmpty)
        #expect(refused.standardError.hasPrefix("weather-app: permission denied: uid 65534 is not among group "
                                                + "weather's writers"), "\(refused)")
        let stored = try world.widgetctlSucceeding("data", "get", "weather", "location")
        #expect(stored.standardOutput.contains("Oslo"), "\(stored)")
    }
}
