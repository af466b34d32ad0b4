/// Where each widget sits on the home screen: an ordered list of slots, each holding one widget or a stack of up to
/// ten of the same family (the iOS Smart Stack), one of which a person may pin on top. Pure value: every operation
/// returns whether it changed anything, and `reconciled` brings it in line with the daemon's widgets.
public struct HomeLayout: Sendable, Hashable, Codable {
    /// One place on the grid.
    public struct Slot: Sendable, Hashable, Codable {
        /// Stable for the slot's life (`s1`, `s2`...), so a page can address it while widgets come and go.
        public var id: String
        /// The widgets in it, in the order they were stacked; never empty.
        public var widgets: [String]
        /// The widget a person pinned on top, if any.
        public var pinned: String?

        public init(id: String, widgets: [String], pinned: String? = nil) {
            self.id = id
            self.widgets = widgets
            self.pinned = pinned
        }
    }

    /// Why an arrangement was refused, in words for the person who asked.
    public enum Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        case unknownWidget(String)
        case unknownSlot(String)
        case stackFull(slot: String)
        case familyMismatch(widget: String, family: String, slotFamily: String)
        case notInSlot(widget: String, slot: String)

        public var description: String {
            switch self {
            case .unknownWidget(let id): return "no widget \(id) on the home screen"
            case .unknownSlot(let id): return "no place \(id) on the home screen"
            case .stackFull: return "a stack holds at most \(HomeLayout.maximumStackSize) widgets"
            case .familyMismatch(let widget, let family, let slotFamily):
                return "\(widget) is \(family) and the stack holds \(slotFamily) widgets: only widgets of one size "
                    + "stack"
            case .notInSlot(let widget, let slot): return "\(widget) is not in \(slot)"
            }
        }
    }

    /// The most widgets one stack holds, as on iOS.
    public static let maximumStackSize = 10

    public var slots: [Slot]
    /// The number the next new slot takes.
    public var nextSlotNumber: Int

    public init(slots: [Slot] = [], nextSlotNumber: Int = 1) {
        self.slots = slots
        self.nextSlotNumber = max(nextSlotNumber, 1)
    }

    /// The slot holding `widget`.
    public func slot(holding widget: String) -> Slot? {
        slots.first { $0.widgets.contains(widget) }
    }

    public func slot(id: String) -> Slot? {
        slots.first { $0.id == id }
    }

    /// Every widget on the screen, in slot order.
    public var widgetIDs: [String] { slots.flatMap(\.widgets) }

    private mutating func newSlotID() -> String {
        defer { nextSlotNumber += 1 }
        return "s\(nextSlotNumber)"
    }

    /// The layout for the daemon's widgets `present` (id -> family), in the daemon's order: widgets that are gone
    /// leave their slots (a stack keeps its others), new ones get a slot each at the end, and a stack whose widgets no
    /// longer share a family (one was resized elsewhere) is split.
    public func reconciled(with present: [(id: String, family: String)]) -> HomeLayout {
        let families = Dictionary(present.map { ($0.id, $0.family) }, uniquingKeysWith: { first, _ in first })
        var result = HomeLayout(slots: [], nextSlotNumber: nextSlotNumber)
        var placed = Set<String>()
        for slot in slots {
            var kept = slot.widgets.filter { families[$0] != nil && !placed.contains($0) }
            guard let first = kept.first else { continue }
            let family = families[first]
            let strays = kept.filter { families[$0] != family }
            kept.removeAll { families[$0] != family }
            kept = Array(kept.prefix(Self.maximumStackSize))
            placed.formUnion(kept)
            let pinned = slot.pinned.flatMap { kept.contains($0) ? $0 : nil }
            result.slots.append(Slot(id: slot.id, widgets: kept, pinned: pinned))
            for stray in strays where !placed.contains(stray) {
                placed.insert(stray)
                result.slots.append(Slot(id: result.newSlotID(), widgets: [stray]))
            }
        }
        for widget in present where !placed.contains(widget.id) {
            placed.insert(widget.id)
            result.slots.append(Slot(id: result.newSlotID(), widgets: [widget.id]))
        }
        return result
    }

    /// Appends `widget` in a slot of its own, unless it is already placed.
    public mutating func append(_ widget: String) {
        guard slot(holding: widget) == nil else { return }
        slots.append(Slot(id: newSlotID(), widgets: [widget]))
    }

    /// Takes `widget` off the screen; its slot goes with it when it was alone there.
    public mutating func remove(_ widget: String) {
        for index in slots.indices.reversed() where slots[index].widgets.contains(widget) {
            slots[index].widgets.removeAll { $0 == widget }
            if slots[index].pinned == widget { slots[index].pinned = nil }
            if slots[index].widgets.isEmpty { slots.remove(at: index) }
        }
    }

    /// Puts `new` where `old` was (a widget added anew in another family takes its predecessor's place), out of any
    /// slot it already had (the host may have seen it added, and placed it at the end, first); it leaves a stack for
    /// a slot of its own right after when `fitsStack` says it no longer fits there.
    public mutating func replace(_ old: String, with new: String, fitsStack: Bool) throws(Refusal) {
        guard slot(holding: old) != nil else { throw .unknownWidget(old) }
        if new != old { remove(new) }
        guard let index = slots.firstIndex(where: { $0.widgets.contains(old) }) else { throw .unknownWidget(old) }
        if slots[index].widgets.count == 1 || fitsStack {
            slots[index].widgets = slots[index].widgets.map { $0 == old ? new : $0 }
            if slots[index].pinned == old { slots[index].pinned = new }
        } else {
            slots[index].widgets.removeAll { $0 == old }
            if slots[index].pinned == old { slots[index].pinned = nil }
            slots.insert(Slot(id: newSlotID(), widgets: [new]), at: index + 1)
        }
    }

    /// Moves slot `id` to just before slot `before` (to the end when nil).
    public mutating func move(slot id: String, before: String?) throws(Refusal) {
        guard let from = slots.firstIndex(where: { $0.id == id }) else { throw .unknownSlot(id) }
        if let before, slot(id: before) == nil { throw .unknownSlot(before) }
        guard before != id else { return }
        let moving = slots.remove(at: from)
        let to = before.flatMap { target in slots.firstIndex { $0.id == target } } ?? slots.endIndex
        slots.insert(moving, at: to)
    }

    /// Moves `widget` into the stack of slot `target`, whose widgets are of `targetFamily`; the widget is of
    /// `family`. Its old slot goes when it was alone there.
    public mutating func stack(_ widget: String, family: String, onto target: String,
                               targetFamily: String) throws(Refusal) {
        guard slot(holding: widget) != nil else { throw .unknownWidget(widget) }
        guard let destination = slot(id: target) else { throw .unknownSlot(target) }
        guard !destination.widgets.contains(widget) else { return }
        guard family == targetFamily else {
            throw .familyMismatch(widget: widget, family: family, slotFamily: targetFamily)
        }
        guard destination.widgets.count < Self.maximumStackSize else { throw .stackFull(slot: target) }
        remove(widget)
        guard let index = slots.firstIndex(where: { $0.id == target }) else { throw .unknownSlot(target) }
        slots[index].widgets.append(widget)
    }

    /// Takes `widget` out of its stack into a slot of its own right after it.
    public mutating func unstack(_ widget: String) throws(Refusal) {
        guard let index = slots.firstIndex(where: { $0.widgets.contains(widget) }) else {
            throw .unknownWidget(widget)
        }
        guard slots[index].widgets.count > 1 else { return }
        slots[index].widgets.removeAll { $0 == widget }
        if slots[index].pinned == widget { slots[index].pinned = nil }
        slots.insert(Slot(id: newSlotID(), widgets: [widget]), at: index + 1)
    }

    /// Pins `widget` on top of slot `id`, or unpins when nil.
    public mutating func pin(_ widget: String?, in id: String) throws(Refusal) {
        guard let index = slots.firstIndex(where: { $0.id == id }) else { throw .unknownSlot(id) }
        if let widget, !slots[index].widgets.contains(widget) { throw .notInSlot(widget: widget, slot: id) }
        slots[index].pinned = widget
    }
}
