import Logging
import WidgetProtocol
import WidgetSchedulerCore

/// The hosts that watch (`WatchHub`), and the telling pass of `perform`: what the journal, the history and the
/// watchers are told of a request's decisions and of entry changes. A run's end is told by `WidgetService+Runs`.
extension WidgetService {
    /// Registers a `Watch` client; returns its id for `unwatch`.
    public func watch(_ filter: WatchMethod.Parameters, send: @escaping (WatchEvent) -> Bool) -> Int {
        hub.add(filter, send: send)
    }

    /// Forgets the `Watch` client `id`.
    public func unwatch(_ id: Int) {
        hub.remove(id)
    }

    /// Tells a request's decision: a changed plan gets its own journal and history line, an unchanged one is logged
    /// in bulk by the request (`logUnchanged`); hosts see each.
    func tell(_ decided: RequestDecision, at now: Instant) {
        let id = decided.widget
        if decided.changedPlan {
            let reason = scheduler.plannedRun(for: id, at: now)?.reason ?? scheduler.widgets[id]?.inFlight?.reason
            reporter.decided(decided, kind: widgets[id]?.kind, tokens: scheduler.tokens(of: id, at: now) ?? 0,
                             reloadReason: reason, at: now, history: &state.batch)
        }
        if !hub.isEmpty, let kind = widgets[id]?.kind {
            hub.broadcast(.decided(kind: kind, date: now.wall,
                                   decision: ReloadDecision(widget: id, decision: decided.decision, now: now)))
        }
    }

    /// Tells the entry change; `perform` has already set the widget's current content.
    func announceEntry(_ id: String, _ entry: TimelineOutline.Entry) {
        guard let position = widgets.position(forKey: id) else { return }
        logger.debug("\(id): current entry is now \(RFC3339.string(from: entry.date))", metadata: metadata(id, [
            JournalField.messageID: JournalMessageID.entryChanged.metadataValue]))
        guard !hub.isEmpty else { return }
        hub.entryChanged(widget: id, kind: widgets[position: position].kind, date: entry.date,
                         content: widgets[position: position].currentContent,
                         isDecoded: widgets[position: position].currentContentIsDecoded,
                         images: widgets[position: position].currentImages)
    }
}
