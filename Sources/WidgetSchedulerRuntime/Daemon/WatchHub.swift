import Foundation
import WidgetProtocol
import WidgetSchedulerCore

/// The `Watch` clients, and what hosts are told: each event goes to the clients whose filter matches it, and a client
/// that cannot take it any more is dropped. Nothing is built for an event nobody watches (`isEmpty`).
final class WatchHub {
    /// A `Watch` client: its filter and how to send it an event (false once it is gone).
    private struct Watcher {
        var filter: WatchMethod.Parameters
        var send: (WatchEvent) -> Bool
    }

    private var watchers: [Int: Watcher] = [:]
    private var lastID = 0

    /// Whether no client watches.
    var isEmpty: Bool { watchers.isEmpty }

    /// Registers a client; returns its id for `remove(_:)`.
    func add(_ filter: WatchMethod.Parameters, send: @escaping (WatchEvent) -> Bool) -> Int {
        lastID += 1
        watchers[lastID] = Watcher(filter: filter, send: send)
        return lastID
    }

    func remove(_ id: Int) {
        watchers[id] = nil
    }

    /// Sends `event` to every client whose filter matches it.
    func broadcast(_ event: WatchEvent) {
        guard !watchers.isEmpty else { return }
        for (id, watcher) in watchers where watcher.filter.matches(widget: event.widget, kind: event.kind) {
            if !watcher.send(event) { watchers[id] = nil }
        }
    }

    /// A run's end, as hosts see it.
    func runEnded(_ end: RunEnd) {
        guard !watchers.isEmpty else { return }
        broadcast(.runFinished(widget: end.id, kind: end.kind, date: end.at.wall, reason: end.reason.rawValue,
                               outcome: end.outcome.name, detail: end.outcome.detail))
    }

    /// A widget's new current entry. Content this process decoded (`isDecoded`) is sent as it is; other content is
    /// parsed first, and sent as null if it does not parse.
    func entryChanged(widget: String, kind: String, date: Date, content: String?, isDecoded: Bool,
                      images: [String: EntryImage] = [:]) {
        guard !watchers.isEmpty else { return }
        let images = images.isEmpty ? nil : images
        if isDecoded, let content {
            broadcast(.entryChanged(widget: widget, kind: kind, date: date, canonicalContent: content,
                                    images: images))
        } else {
            broadcast(.entryChanged(widget: widget, kind: kind, date: date,
                                    content: content.flatMap(JSONValue.init(jsonText:)) ?? .null, images: images))
        }
    }
}
