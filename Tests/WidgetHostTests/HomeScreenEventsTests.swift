import Foundation
import Logging
import Testing
import WidgetProtocol
@testable import WidgetHost

extension HomeScreen {
    /// Puts widgets on the screen as a refresh from the daemon would, one slot each (`s1`, `s2`...).
    func place(_ placed: [WidgetSummary]) {
        widgets = Dictionary(uniqueKeysWithValues: placed.map { ($0.id, $0) })
        layout = HomeLayout(slots: placed.enumerated().map { HomeLayout.Slot(id: "s\($0 + 1)", widgets: [$1.id]) },
                            nextSlotNumber: placed.count + 1)
    }

    /// Makes `ids` one stack in slot `slotID`, the others keeping their slots.
    func stack(_ ids: [String], as slotID: String) {
        var slots = layout.slots.filter { slot in !slot.widgets.contains { ids.contains($0) } }
        slots.insert(HomeLayout.Slot(id: slotID, widgets: ids), at: 0)
        layout = HomeLayout(slots: slots, nextSlotNumber: layout.nextSlotNumber)
    }
}

/// What the host sends its pages as the daemon's stream goes by: one event for what changed together, and no grid
/// for a page that already shows the current one.
@Suite struct HomeScreenEventsTests {
    static func home() -> HomeScreen {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("home-screen-events-\(UUID().uuidString)", isDirectory: true)
        // Nothing listens at this socket: these tests must not need the daemon.
        let settings = HostSettings(daemonSocket: directory.appendingPathComponent("no-daemon.socket").path,
                                    stateDirectory: directory)
        return HomeScreen(settings: settings, daemon: DaemonClient(socketPath: settings.daemonSocket),
                          logger: Logger(label: "home-screen-events-tests"))
    }

    static func widget(_ id: String) -> WidgetSummary {
        WidgetSummary(id: id, kind: "ticker", family: "systemSmall", configuration: [:], state: "idle", tokens: 1)
    }

    static func entry(_ widget: String, _ text: String) -> WatchEvent {
        .entryChanged(widget: widget, kind: "ticker", date: Date(timeIntervalSince1970: 1_800_000_000),
                      content: .object(["text": .string(text)]))
    }

    /// Every frame a new page would be sent before anything changes.
    static func opening(_ home: HomeScreen, drawnAt: String?) async -> [String] {
        let subscription = await home.subscribe(drawnAt: drawnAt)
        await home.unsubscribe(subscription.id)
        var frames: [String] = []
        for await frame in subscription.stream { frames.append(frame) }
        return frames
    }

    @Test func entriesThatChangedTogetherReachAPageAsOneEventWithEachFaceOnce() async throws {
        let home = Self.home()
        await home.place(["w1", "w2", "w3"].map(Self.widget))
        let subscription = await home.subscribe()
        var frames = subscription.stream.makeAsyncIterator()
        #expect(await frames.next()?.hasPrefix("event: status\n") == true)
        #expect(await frames.next()?.hasPrefix("event: grid\n") == true)

        await home.handle(.events([Self.entry("w1", "first"), Self.entry("w3", "third"), Self.entry("w1", "again")]))
        await home.unsubscribe(subscription.id)
        let frame = try #require(await frames.next())
        let payload = try Self.changes(frame)
        #expect(payload.slots.isEmpty, "a new entry of a widget alone in its slot sends its face, not its slot")
        #expect(payload.faces.map(\.widget) == ["w1", "w3"], "each face once, a widget nothing changed in not sent")
        #expect(payload.faces.allSatisfy { $0.html.hasPrefix(#"<div class="face">"#) && !$0.html.contains("<article") })
        #expect(payload.faces[0].html.contains("again") && !frame.contains("first"), "w1 drawn with its last entry")
        #expect(await frames.next() == nil, "one event for the burst")
    }

    @Test func aNewEntryInAStackRedrawsItsSlotWhole() async throws {
        let home = Self.home()
        await home.place(["w1", "w2", "w3"].map(Self.widget))
        await home.stack(["w1", "w2"], as: "s1")
        let subscription = await home.subscribe()
        var frames = subscription.stream.makeAsyncIterator()
        _ = await frames.next()
        _ = await frames.next()

        await home.handle(.events([Self.entry("w2", "second"), Self.entry("w3", "third")]))
        await home.unsubscribe(subscription.id)
        let payload = try Self.changes(try #require(await frames.next()))
        #expect(payload.slots.map(\.slot) == ["s1"], "the stack's order may change with the entry's relevance")
        #expect(payload.slots[0].html.contains(#"data-widget="w1""#) && payload.slots[0].html.contains("second"))
        #expect(payload.faces.map(\.widget) == ["w3"])
    }

    /// The payload of a `changes` frame.
    static func changes(_ frame: String) throws -> HomeScreen.ChangesPayload {
        #expect(frame.hasPrefix("event: changes\ndata: "))
        let data = try #require(frame.split(separator: "\n").first { $0.hasPrefix("data: ") }?.dropFirst(6))
        return try JSONDecoder().decode(HomeScreen.ChangesPayload.self, from: Data(data.utf8))
    }

    @Test func aPageDrawnAtTheCurrentVersionIsNotSentTheGridItShows() async {
        let home = Self.home()
        await home.place([Self.widget("w1")])
        let current = await home.versionTag
        let frames = await Self.opening(home, drawnAt: current)
        #expect(frames.map { $0.prefix(12) } == ["event: statu"])
    }

    @Test func aPageDrawnEarlierOrByAnotherRunOfTheHostIsSentTheGrid() async {
        let home = Self.home()
        await home.place([Self.widget("w1")])
        await home.handle(.events([Self.entry("w1", "new")]))
        let current = await home.versionTag
        let instance = current.split(separator: ".")[0]
        for drawnAt in [nil, "\(instance).0", "another.\(current.split(separator: ".")[1])"] {
            let frames = await Self.opening(home, drawnAt: drawnAt)
            #expect(frames.count == 2 && frames[1].hasPrefix("event: grid\n"), "drawn at \(drawnAt ?? "nothing")")
        }
    }
}
