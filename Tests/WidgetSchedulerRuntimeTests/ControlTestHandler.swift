import Foundation
import WidgetProtocol
@testable import WidgetSchedulerRuntime

/// A handler for control tests: `Status` answers at once, `Reload` echoes its widgets as decisions (ran, or deferred
/// by the floor for ids starting with `deferred-`), `Remove` refuses, `Options` keeps the call to answer later,
/// `Watch` keeps the call to stream.
final class ControlTestHandler: ControlHandler {
    var calls: [(method: ControlMethod, peer: PeerCredentials)] = []
    var pendingOptions: [VarlinkCall] = []
    var watchers: [VarlinkCall] = []
    var closedWatchers = 0
    /// When a reload of a widget whose id starts with `deferred-` is deferred to (the floor).
    var deferredUntil = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 300).rounded(.down))

    func handle(_ call: VarlinkCall, peer: PeerCredentials) -> VarlinkResponse {
        calls.append((call.method, peer))
        switch call.method {
        case .status:
            return .reply(["pid": .integer(Int64(peer.pid)), "uid": .integer(Int64(peer.uid))])
        case .reload:
            do {
                let parameters = try call.parameters(ReloadMethod.self)
                guard case .widgets(let ids) = try parameters.target() else { return .error(.unknownKind("any")) }
                let at = Date(timeIntervalSince1970: 1_795_000_000)
                let decisions = ids.map { id in
                    id.hasPrefix("deferred-")
                        ? ReloadDecision(widget: id, decision: .deferred, at: deferredUntil, because: .floor)
                        : ReloadDecision(widget: id, decision: .ran, at: at)
                }
                return .reply(ReloadMethod.Reply(decisions: decisions))
            } catch {
                return .error(error)
            }
        case .list:
            // A whole message, as the daemon answers `List`: numbered so pipelined replies can be told apart.
            return .message(capacity: 64) { output in
                output.raw(#"{"widgets":[{"n":"#)
                output.number(Double(calls.count))
                output.raw("}]}")
            }
        case .remove:
            return .error(.permissionDenied(method: "Remove", reason: "test"))
        case .options:
            pendingOptions.append(call)
            return .pending
        case .watch:
            watchers.append(call)
            call.onClose = { [unowned self] in closedWatchers += 1 }
            return .pending
        default:
            return .error(.methodNotImplemented(call.method.qualifiedName))
        }
    }

    /// Sends one entryChanged event for `widget` to every open watcher.
    func broadcast(_ widget: String) {
        let event = WatchEvent.entryChanged(
            widget: widget, kind: "clock", date: Date(timeIntervalSince1970: 1_795_000_000), content: .string(widget))
        for watcher in watchers where watcher.isOpen {
            watcher.stream(event)
        }
    }
}

/// Builds a call message (JSON + NUL).
func controlMessage(_ json: String) -> [UInt8] {
    Array(json.utf8) + [0]
}

/// Splits output bytes into replies.
func controlReplies(_ bytes: [UInt8]) -> [VarlinkReply] {
    bytes.split(separator: 0, omittingEmptySubsequences: true).compactMap {
        try? JSONDecoder().decode(VarlinkReply.self, from: Data($0))
    }
}
