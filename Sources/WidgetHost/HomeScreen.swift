import Foundation
import Logging
import WidgetControlClient
import WidgetProtocol
import WidgetViews

/// What the host knows and shows: the daemon's widgets and kinds, the layout, the stacks' order, and the pages that
/// listen. Fed by the daemon's `Watch` stream (`handle`), it renders what changed once and sends it to every open
/// page as a Server-Sent Event; the routes call its operations, which go to the daemon through the control API.
public actor HomeScreen {
    /// Whether the daemon answers.
    public enum DaemonState: Sendable, Equatable {
        case connecting
        case up
        case down(String)
    }

    let settings: HostSettings
    let daemon: DaemonClient
    /// The kinds' views, read again with the widgets and kinds.
    var faces = WidgetFaces()
    let layoutFile: LayoutFile
    let logger: Logger
    let events = EventBroadcaster()

    var widgets: [String: WidgetSummary] = [:]
    var kinds: [String: KindsMethod.Kind] = [:]
    var kindOrder: [String] = []
    var layout: HomeLayout
    /// Each stack's widgets, most relevant first, as the daemon's `Stack` orders them.
    var stackOrders: [String: [String]] = [:]
    /// Wakes when the first stacked relevance runs out, to rotate the stack.
    var relevanceTimer: Task<Void, Never>?
    public private(set) var daemonState = DaemonState.connecting
    /// Counts the changes sent to pages; a page drawn at this version is current.
    var version = 0
    /// Names this run of the host in `versionTag`, so that a page drawn by an earlier run is never taken as current.
    let instance = String(UInt32.random(in: 0...UInt32.max), radix: 16)
    /// The version as pages see it: this run of the host and its count of changes.
    var versionTag: String { "\(instance).\(version)" }
    /// Gallery previews by "kind/family", with when they were made.
    var previews: [String: (face: RenderedFace, made: Date)] = [:]
    static let previewLifetime: TimeInterval = 600

    /// The words of each failing widget's last failure, from the daemon's `runFinished` event (the list the host
    /// reads names only the outcome): the card shows them beside the entry it keeps.
    var failureDetails: [String: String] = [:]

    /// The entry each widget's render problems were last reported for: a view's complaints are logged once per
    /// entry, not at every redraw.
    var reportedProblems: [String: Date] = [:]

    public init(settings: HostSettings, daemon: DaemonClient, logger: Logger) {
        self.settings = settings
        self.daemon = daemon
        self.logger = logger
        layoutFile = LayoutFile(directory: settings.stateDirectory)
        let loaded = layoutFile.load()
        layout = loaded.layout
        if let problem = loaded.problem { logger.error("\(problem)") }
    }

    // MARK: - The daemon's stream

    /// Applies one message of the daemon's stream and tells the pages what changed.
    public func handle(_ message: WatchFeed.Message) async {
        switch message {
        case .connected:
            do {
                try await refresh()
                daemonState = .up
                logger.info("connected to the daemon at \(settings.daemonSocket)")
                broadcastStatus()
                broadcastGrid()
            } catch {
                markDown(error.description)
            }
        case .disconnected(let reason):
            markDown(reason)
        case .events(let events):
            await apply(events)
        }
    }

    private func markDown(_ reason: String) {
        guard daemonState != .down(reason) else { return }
        if daemonState == .up || daemonState == .connecting {
            logger.warning("the daemon is unreachable: \(reason)")
        }
        daemonState = .down(reason)
        broadcastStatus()
    }

    /// What one event changed on the screen.
    private enum Change {
        case nothing
        /// A new entry of a widget alone in its slot: its face is all that changes.
        case face(widget: String)
        case slot(String)
        /// A widget the host does not know of: the whole grid, read again.
        case grid
    }

    /// Applies events that arrived together, then draws each slot or face they changed once and sends them all in
    /// one message: a burst of changes costs the pages one update, not one per widget.
    private func apply(_ events: [WatchEvent]) async {
        var changed: [String] = []
        var changedFaces: [String] = []
        var seenFaces: Set<String> = []
        var gridChanged = false
        for event in events {
            switch apply(event) {
            case .nothing: break
            case .face(let widget): if seenFaces.insert(widget).inserted { changedFaces.append(widget) }
            case .slot(let id): if !changed.contains(id) { changed.append(id) }
            case .grid: gridChanged = true
            }
        }
        if gridChanged {
            // A widget added by someone else (widgetctl, an app): read the list again.
            try? await refresh()
            broadcastGrid()
            return
        }
        // After a failure the card says what happens next (a retry after a backoff, or quarantine): the widgets'
        // state and next run, which the daemon has settled by the time it answers the next call.
        let failed = events.filter { $0.event == .runFinished && $0.outcome != "success" }.map(\.widget)
        if !failed.isEmpty { await refreshWidgets(Set(failed)) }
        if changed.contains(where: { layout.slot(id: $0).map { $0.widgets.count > 1 } ?? false }) {
            await refreshStacks()
        }
        // A face whose slot is drawn whole anyway is not sent again.
        let changedSlots = Set(changed)
        broadcastChanges(slots: changed, faces: changedFaces.filter { id in
            layout.slot(holding: id).map { !changedSlots.contains($0.id) } ?? false
        })
    }

    private func apply(_ event: WatchEvent) -> Change {
        if event.event == .runFinished {
            failureDetails[event.widget] = event.outcome == "success" ? nil : event.detail
        }
        guard var widget = widgets[event.widget] else {
            return event.event == .decision ? .nothing : .grid
        }
        switch event.event {
        case .entryChanged:
            widget.currentEntry = WidgetSummary.CurrentEntry(date: event.date, content: event.content ?? .null,
                                                             images: event.images)
            widgets[event.widget] = widget
            guard let slot = layout.slot(holding: event.widget) else { return .nothing }
            // In a stack the new entry's relevance may reorder the slot.
            return slot.widgets.count == 1 ? .face(widget: event.widget) : .slot(slot.id)
        case .runFinished:
            let wasFailing = widget.lastOutcome.map { $0 != "success" } ?? false
            widget.lastOutcome = event.outcome
            widget.lastReason = event.reason
            widgets[event.widget] = widget
            guard wasFailing || event.outcome != "success" else { return .nothing }
            return layout.slot(holding: event.widget).map { .slot($0.id) } ?? .nothing
        case .decision:
            if let at = event.at, event.decision == .deferred {
                widget.nextReload = at
                widgets[event.widget] = widget
            }
            return .nothing
        }
    }

    /// Reads the widgets and kinds again, brings the layout in line with them and orders the stacks.
    func refresh() async throws(HostError) {
        let list: ListMethod.Reply
        let kindsReply: KindsMethod.Reply
        let viewsReply: ViewsMethod.Reply
        do {
            list = try await daemon.call(ListMethod.self, NoParameters())
            kindsReply = try await daemon.call(KindsMethod.self, NoParameters())
            viewsReply = try await daemon.call(ViewsMethod.self, ViewsMethod.Parameters())
        } catch {
            throw HostError(error)
        }
        let newFaces = WidgetFaces(views: viewsReply.views)
        for (kind, problem) in newFaces.unreadable where faces.unreadable[kind] != problem {
            logger.error("the views of kind \(kind) cannot be read, its widgets are drawn plainly: \(problem)")
        }
        faces = newFaces
        widgets = Dictionary(list.widgets.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        reportedProblems = reportedProblems.filter { widgets[$0.key] != nil }
        failureDetails = failureDetails.filter { widgets[$0.key].map { $0.lastOutcome != "success" } ?? false }
        kinds = Dictionary(kindsReply.kinds.map { ($0.kind, $0) }, uniquingKeysWith: { _, last in last })
        kindOrder = kindsReply.kinds.map(\.kind)
        let reconciled = layout.reconciled(with: list.widgets.map { ($0.id, $0.family) })
        if reconciled != layout {
            layout = reconciled
            saveLayout()
        }
        await refreshStacks()
    }

    /// Reads some widgets' state again (their state and next run after a failure), in one call.
    func refreshWidgets(_ ids: Set<String>) async {
        guard let list = try? await daemon.call(ListMethod.self, NoParameters()) else { return }
        for fresh in list.widgets where ids.contains(fresh.id) && widgets[fresh.id] != nil {
            widgets[fresh.id] = fresh
        }
    }

    /// Orders every stack by the daemon's `Stack` (one call for all of them), and wakes again when the first
    /// relevance that orders them runs out.
    func refreshStacks() async {
        let stacked = layout.slots.filter { $0.widgets.count > 1 }
        relevanceTimer?.cancel()
        relevanceTimer = nil
        guard !stacked.isEmpty else {
            stackOrders = [:]
            return
        }
        let ids = stacked.flatMap(\.widgets)
        guard let reply = try? await daemon.call(StackMethod.self, StackMethod.Parameters(ids: ids)) else { return }
        let rank = Dictionary(reply.stack.enumerated().map { ($1.widget, $0) }, uniquingKeysWith: { first, _ in first })
        var orders: [String: [String]] = [:]
        for slot in stacked {
            orders[slot.id] = slot.widgets.sorted { (rank[$0] ?? Int.max, $0) < (rank[$1] ?? Int.max, $1) }
        }
        stackOrders = orders
        if let next = reply.stack.compactMap(\.until).filter({ $0 > Date() }).min() {
            let delay = next.timeIntervalSinceNow + 0.05
            relevanceTimer = Task { [weak self] in
                try? await LoopSleep.sleep(seconds: delay)
                guard !Task.isCancelled else { return }
                await self?.relevanceRanOut()
            }
        }
    }

    private func relevanceRanOut() async {
        let before = stackOrders
        await refreshStacks()
        broadcastChanges(slots: stackOrders.keys.sorted().filter { before[$0] != stackOrders[$0] })
    }

    func saveLayout() {
        do {
            try layoutFile.save(layout)
        } catch {
            logger.error("cannot save the layout: \(error)")
        }
    }

    // MARK: - Pages and events

    /// The whole page, drawn from what the host knows now (read again from the daemon first when it answers, so a
    /// widget removed elsewhere is gone).
    public func page() async -> String {
        if daemonState == .up {
            do {
                try await refresh()
            } catch {
                markDown(error.description)
            }
        }
        return HomeMarkup.page(title: settings.title, version: versionTag, daemonDown: downReason,
                               tapsToCommand: settings.tapCommand != nil, grid: gridHTML())
    }

    var downReason: String? {
        switch daemonState {
        case .down(let reason): return reason
        case .connecting: return "connecting"
        case .up: return nil
        }
    }

    /// A new listener's stream of events: the daemon's state and the whole grid first, then every change. A page
    /// that says it was drawn at the current version (`drawnAt`, its `versionTag`) is spared the grid it shows.
    public func subscribe(drawnAt: String? = nil) -> (id: Int, stream: AsyncStream<String>) {
        let subscription = events.subscribe()
        events.send(to: subscription.id, statusEvent())
        if drawnAt != versionTag { events.send(to: subscription.id, gridEvent()) }
        return subscription
    }

    public func unsubscribe(_ id: Int) {
        events.unsubscribe(id)
    }

    func gridHTML() -> String {
        guard !layout.slots.isEmpty else { return HomeMarkup.emptyGrid() }
        return layout.slots.map { slotHTML($0) }.joined()
    }

    func slotHTML(_ slot: HomeLayout.Slot) -> String {
        let model = slotModel(slot)
        let now = Date()
        var drawn: [String: RenderedFace] = [:]
        for id in model.order {
            guard let widget = widgets[id] else { continue }
            drawn[id] = face(of: widget, now: now)
        }
        return HomeMarkup.slot(model, faces: drawn)
    }

    /// A widget's face now, its view's complaints about the entry logged once per entry.
    func face(of widget: WidgetSummary, now: Date) -> RenderedFace {
        let face = faces.face(kind: widget.kind, family: widget.family, date: widget.currentEntry?.date,
                              content: widget.currentEntry?.content, images: widget.currentEntry?.images,
                              imageBaseURL: WidgetFaces.imagePrefix(widget: widget.id), now: now)
        if let entry = widget.currentEntry, !face.problems.isEmpty, reportedProblems[widget.id] != entry.date {
            reportedProblems[widget.id] = entry.date
            let problems = face.problems.map(\.description).joined(separator: "; ")
            let widgetName = "\(widget.id) (\(widget.kind))"
            logger.warning("\(widgetName): the view cannot draw all of the entry of \(entry.date): \(problems)")
        }
        return face
    }

    func slotModel(_ slot: HomeLayout.Slot) -> HomeMarkup.SlotModel {
        var order = stackOrders[slot.id].map { ordered in
            ordered.filter(slot.widgets.contains) + slot.widgets.filter { !ordered.contains($0) }
        } ?? slot.widgets
        if let pinned = slot.pinned, let index = order.firstIndex(of: pinned) {
            order.remove(at: index)
            order.insert(pinned, at: 0)
        }
        let failures = order.reduce(into: [String: String]()) { failures, id in
            if let widget = widgets[id], let text = RunFailureText.describe(widget, detail: failureDetails[id]) {
                failures[id] = text
            }
        }
        return HomeMarkup.SlotModel(slot: slot, order: order, widgets: widgets, kinds: kinds, failures: failures)
    }

    func kindName(_ kind: String) -> String {
        kinds[kind]?.displayName ?? kind
    }

    func statusEvent() -> String {
        let payload = StatusPayload(up: daemonState == .up, message: downReason.map(HomeMarkup.banner(for:)))
        return ServerSentEvent.encode(event: "status", payload)
    }

    func gridEvent() -> String {
        ServerSentEvent.encode(event: "grid", GridPayload(version: versionTag, html: gridHTML()))
    }

    func broadcastStatus() {
        events.broadcast(statusEvent())
    }

    func broadcastGrid() {
        version += 1
        events.broadcast(gridEvent())
    }

    /// Sends what changed, drawn now, to every page in one event: the slots `slotIDs` whole, and the faces alone of
    /// `faceWidgets`, whose cards nothing else changed in (a new entry of a widget alone in its slot). A face is a
    /// small part of its card's markup, so a burst of entries costs the host and the pages that much less to draw.
    func broadcastChanges(slots slotIDs: [String], faces faceWidgets: [String] = []) {
        let slots = slotIDs.compactMap { id in
            layout.slot(id: id).map { ChangesPayload.Slot(slot: id, html: slotHTML($0)) }
        }
        let now = Date()
        let faces = faceWidgets.compactMap { id in
            widgets[id].map { widget in
                let face = face(of: widget, now: now)
                return ChangesPayload.Face(widget: id, html: HomeMarkup.face(face), url: face.urls.first)
            }
        }
        guard !slots.isEmpty || !faces.isEmpty else { return }
        version += 1
        events.broadcast(ServerSentEvent.encode(event: "changes",
                                                ChangesPayload(version: versionTag, slots: slots, faces: faces)))
    }

    struct StatusPayload: Encodable {
        var up: Bool
        var message: String?
    }

    struct GridPayload: Encodable {
        var version: String
        var html: String
    }

    // Decodable too, so that the tests read a page's event back.
    struct ChangesPayload: Codable {
        struct Slot: Codable {
            var slot: String
            var html: String
        }

        /// A card's face alone, and the URL its tap opens now (none: the card has no `data-url`).
        struct Face: Codable {
            var widget: String
            var html: String
            var url: String?
        }

        var version: String
        var slots: [Slot]
        var faces: [Face]
    }
}
