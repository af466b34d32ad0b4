import Foundation
import Testing
import WidgetProtocol
import WidgetProviders
import WidgetSchedulerCore
import WidgetSchedulerRuntime
import WidgetSchedulerTestKit

/// A `WidgetService` wired to the test kit's fakes: a manual clock, a fake launcher, a fake timer, an in-memory
/// store, in-memory group data files and a recording journal.
final class WidgetServiceHarness {
    let clock: ManualDaemonClock
    let launcher = FakeProviderLauncher()
    let timer = FakeWakeupTimer()
    let store: InMemoryStateStore
    let groupData: InMemoryGroupData
    let images: InMemoryImageStore?
    let journal = RecordingLogHandler.Journal()
    let directory: URL
    var service: WidgetService

    static let weather = ProviderManifest(
        path: "/etc/widget-scheduler/providers/weather.toml", exec: ["/usr/lib/widget-providers/weather"],
        group: "weather", savesImages: true,
        widgets: [WidgetKindManifest(kind: "weather", families: ["systemSmall", "systemMedium"], parameters: [
            ParameterSpec(name: "location", type: .string, defaultValue: .string("Cupertino")),
            ParameterSpec(name: "units", type: .enum, options: .fixed([
                ParameterOption(value: .string("metric"), title: "Metric"),
                ParameterOption(value: .string("imperial"), title: "Imperial"),
            ])),
        ])])
    static let clockKind = ProviderManifest(
        path: "/etc/widget-scheduler/providers/clock.toml", exec: ["/usr/lib/widget-providers/clock"],
        savesImages: true, widgets: [WidgetKindManifest(kind: "clock")])
    /// A provider that saves no images (its manifest does not say `images = true`).
    static let noteKind = ProviderManifest(
        path: "/etc/widget-scheduler/providers/note.toml", exec: ["/usr/lib/widget-providers/note"],
        widgets: [WidgetKindManifest(kind: "note")])

    /// A service over `store`, loaded as after a clean stop unless `afterDeath` (the daemon died).
    init(settings: SchedulerSettings = SchedulerSettings(maxConcurrentRuns: 4),
         store: InMemoryStateStore = InMemoryStateStore(), clock: ManualDaemonClock = ManualDaemonClock(),
         afterDeath: Bool = false, images: InMemoryImageStore? = nil) throws {
        self.store = store
        self.images = images
        self.clock = clock
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ws-\(UUID().uuidString)")
        groupData = InMemoryGroupData(root: directory.appendingPathComponent("groups", isDirectory: true))
        service = WidgetService(
            options: WidgetService.Options(stateDirectory: directory, socketPath: "/run/test.socket"),
            settings: settings, manifests: ManifestSet(manifests: [Self.weather, Self.clockKind, Self.noteKind]),
            clock: clock, launcher: launcher, timer: timer, store: store, groupData: groupData, images: images,
            logger: RecordingLogHandler.logger(journal))
        try service.load(lastStopWasClean: !afterDeath)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Moves the clock to monotonic `t` and fires the timer if it is due, as the event loop would.
    func advance(to t: Double) {
        clock.clock.advance(to: t)
        if let armed = timer.armedAt, armed <= t { service.tick() }
    }

    /// Adds a widget whose parameters are all given (no defaults request) and returns its id.
    func addWidget(kind: String = "clock", parameters: [String: JSONValue] = [:]) throws -> String {
        var result: Result<String, ControlError>?
        service.add(kind: kind, family: nil, parameters: parameters) { result = $0 }
        return try #require(result).get()
    }

    /// A widget of the weather kind, whose manifest requires a location: `location`, in metric units.
    func addWeatherWidget(in location: String = "Paris") throws -> String {
        try addWidget(kind: "weather", parameters: ["location": .string(location), "units": .string("metric")])
    }

    /// A timeline whose entries are `offsets` seconds after now.
    func timeline(_ offsets: [Double], policy: ReloadPolicy = .never, content: String = "{\"t\":1}") -> Timeline {
        let start = clock.now().wall
        return Timeline(entries: offsets.map { TimelineEntry(date: start.addingTimeInterval($0), content: content) },
                        policy: policy)
    }
}
