import Foundation
import WidgetControlClient
import WidgetProtocol

/// What a person can do on the home screen: each operation asks the daemon through the control API (whose refusals
/// come back as `HostError` in the daemon's words) or changes the layout, saves it, and tells every page.
extension HomeScreen {
    /// Adds a widget of `kind` in `family` through the daemon's `Add` (the provider's defaults fill its
    /// configuration) and places it at the end.
    public func add(kind: String, family: String) async throws(HostError) -> String {
        let id: String
        do {
            id = try await daemon.call(AddMethod.self, AddMethod.Parameters(kind: kind, family: family)).id
        } catch {
            throw HostError(error)
        }
        logger.info("added \(id), kind \(kind), family \(family)")
        try? await refresh()
        layout.append(id)
        saveLayout()
        broadcastGrid()
        return id
    }

    /// Removes a widget from the daemon and the screen.
    public func remove(_ id: String) async throws(HostError) {
        do {
            _ = try await daemon.call(RemoveMethod.self, RemoveMethod.Parameters(id: id))
        } catch {
            guard case .remote(let remote) = error, remote.name == ControlError.Name.unknownWidget else {
                throw HostError(error)
            }
        }
        widgets[id] = nil
        layout.remove(id)
        saveLayout()
        await refreshStacks()
        broadcastGrid()
    }

    /// Sends a new configuration; the answer is the configuration run's decision in words.
    public func configure(_ id: String, parameters: [String: JSONValue]) async throws(HostError) -> String {
        let reply: ConfigureMethod.Reply
        do {
            reply = try await daemon.call(
                ConfigureMethod.self, ConfigureMethod.Parameters(id: id, parameters: parameters))
        } catch {
            throw HostError(error)
        }
        if var widget = widgets[id] {
            widget.configuration.merge(parameters) { _, new in new }
            widgets[id] = widget
        }
        return DecisionText.describe(reply.decision)
    }

    /// An explicit reload of one widget; the answer is the daemon's decision in words.
    public func reload(_ id: String) async throws(HostError) -> String {
        let reply: ReloadMethod.Reply
        do {
            reply = try await daemon.call(ReloadMethod.self, ReloadMethod.Parameters(widgets: [id]))
        } catch {
            throw HostError(error)
        }
        guard let decision = reply.decisions.first else {
            throw HostError(status: 502, message: "The daemon answered no decision for \(id).")
        }
        return DecisionText.describe(decision)
    }

    /// Shows the widget in another family of its kind: the daemon keeps a widget's family for life, so a new widget
    /// with the same configuration takes the old one's place, and the old one goes.
    public func resize(_ id: String, to family: String) async throws(HostError) -> String {
        guard let widget = widgets[id] else { throw HostError(status: 404, message: "No widget \(id).") }
        guard widget.family != family else { return id }
        if let kind = kinds[widget.kind], !kind.families.contains(family) {
            throw HostError(status: 422, message: "\(kindName(widget.kind)) comes in "
                + kind.families.map(FamilyName.label).joined(separator: ", ") + " only.", field: "family")
        }
        let replacement: String
        do {
            replacement = try await daemon.call(AddMethod.self, AddMethod.Parameters(
                kind: widget.kind, family: family, parameters: widget.configuration)).id
        } catch {
            throw HostError(error)
        }
        // Placed before the old one is removed, with no wait between: until then the old one holds its place
        // whatever the daemon's events bring meanwhile.
        let slot = layout.slot(holding: id)
        let othersFit = slot.map { $0.widgets.allSatisfy { $0 == id || widgets[$0]?.family == family } } ?? true
        try? layout.replace(id, with: replacement, fitsStack: othersFit)
        do {
            _ = try await daemon.call(RemoveMethod.self, RemoveMethod.Parameters(id: id))
        } catch {
            // The old widget stays, back where the new one was put; the new one gets a slot at the next refresh.
            try? layout.replace(replacement, with: id, fitsStack: true)
            throw HostError(error)
        }
        try? await refresh()
        saveLayout()
        broadcastGrid()
        return replacement
    }

    /// Moves a slot one place earlier or later.
    public func move(slot id: String, by delta: Int) async throws(HostError) {
        guard let index = layout.slots.firstIndex(where: { $0.id == id }) else {
            throw HostError(.unknownSlot(id))
        }
        let target = index + delta
        guard layout.slots.indices.contains(target) else { return }
        let before = delta < 0 ? layout.slots[target].id : layout.slots.indices.contains(target + 1)
            ? layout.slots[target + 1].id : nil
        try arrange { layout in try layout.move(slot: id, before: before) }
    }

    /// Moves a slot to just before another (to the end when nil): a drag that ends over a place.
    public func move(slot id: String, before: String?) async throws(HostError) {
        try arrange { layout in try layout.move(slot: id, before: before) }
    }

    /// Stacks a widget onto another slot of its size.
    public func stack(_ widget: String, onto slot: String) async throws(HostError) {
        guard let family = widgets[widget]?.family else { throw HostError(.unknownWidget(widget)) }
        guard let target = layout.slot(id: slot) else { throw HostError(.unknownSlot(slot)) }
        let targetFamily = target.widgets.first.flatMap { widgets[$0]?.family } ?? family
        try arrange { layout in try layout.stack(widget, family: family, onto: slot, targetFamily: targetFamily) }
        await refreshStacks()
        broadcastGrid()
    }

    public func unstack(_ widget: String) async throws(HostError) {
        try arrange { layout in try layout.unstack(widget) }
        await refreshStacks()
        broadcastGrid()
    }

    /// Pins `widget` on top of its stack, or unpins the stack's widget when `pinned` is false.
    public func pin(_ widget: String, pinned: Bool) async throws(HostError) {
        guard let slot = layout.slot(holding: widget) else { throw HostError(.unknownWidget(widget)) }
        try arrange { layout in try layout.pin(pinned ? widget : nil, in: slot.id) }
    }

    private func arrange(_ change: (inout HomeLayout) throws -> Void) throws(HostError) {
        var changed = layout
        do {
            try change(&changed)
        } catch let refusal as HomeLayout.Refusal {
            throw HostError(refusal)
        } catch {
            throw HostError(status: 500, message: "\(error)")
        }
        guard changed != layout else { return }
        layout = changed
        saveLayout()
        broadcastGrid()
    }

    /// Opens a tapped URL with the tap command. Only a URL that the widget's face shows may be opened, so a page
    /// cannot make the host run the command on anything else.
    public func open(_ id: String, url: String) async throws(HostError) {
        guard let command = settings.tapCommand else {
            throw HostError(status: 409, message: "This host opens taps in the browser (no tap-command is set).")
        }
        guard let widget = widgets[id] else { throw HostError(status: 404, message: "No widget \(id).") }
        let face = face(of: widget, now: Date())
        guard face.urls.contains(url), HTML.isTappable(url) else {
            throw HostError(status: 403, message: "\(id) does not link to that address.")
        }
        try TapCommand(command: command).open(url)
        logger.info("\(id): opened \(url) with \(command[0])")
    }
}
