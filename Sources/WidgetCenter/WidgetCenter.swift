import Foundation
import WidgetControlClient
import WidgetProtocol

/// WidgetKit's `WidgetCenter` for Linux apps: ask the daemon to reload widgets after the app changed their data, and
/// find out which widgets the user placed.
///
/// ```swift
/// try WidgetGroupDefaults(suiteName: "weather").set("Paris", forKey: "location")
/// try WidgetCenter.shared.reloadTimelines(ofKind: "weather")
/// ```
///
/// It talks to the daemon's control socket: `WIDGET_SCHEDULER_SOCKET` if set, else the system socket
/// `/run/widget-scheduler/control.socket`. Unlike WidgetKit's, every call answers: a reload returns what the daemon
/// decided for each widget, and a failure throws a `WidgetCenterError` with the daemon's reason. An app that wants
/// WidgetKit's fire-and-forget writes `try?`.
///
/// Calls block until the daemon answers (it answers at once: a reload is decided, not awaited), except
/// `getCurrentConfigurations(_:)` and `currentConfigurations()`, which do their work off the caller's thread.
public final class WidgetCenter: Sendable {
    /// The center for the daemon at `WIDGET_SCHEDULER_SOCKET`, else the system socket.
    public static let shared = WidgetCenter()

    private let endpoint: DaemonEndpoint

    /// A center for the daemon at `socketPath` (nil: `WIDGET_SCHEDULER_SOCKET`, else the system socket), waiting
    /// at most `timeout` seconds for each answer.
    public init(socketPath: String? = nil, timeout: Double = 30) {
        endpoint = DaemonEndpoint(socketPath: socketPath, timeout: timeout)
    }

    /// The socket this center connects to.
    public var socketPath: String { endpoint.resolvedPath }

    /// Reloads the timelines of every widget of `kind`, as WidgetKit's `reloadTimelines(ofKind:)`. Each widget
    /// runs within its budget and five-minute floor; with `foreground`, the run is budget-exempt, as WidgetKit
    /// exempts an app in the foreground (the daemon allows it to the kind's owners and root only).
    /// Returns the decision for each widget of the kind: none when the user placed none.
    @discardableResult
    public func reloadTimelines(
        ofKind kind: String, foreground: Bool = false
    ) throws(WidgetCenterError) -> [WidgetReloadDecision] {
        try reload(ReloadMethod.Parameters(kind: kind, foreground: foreground ? true : nil))
    }

    /// Reloads the timelines of every widget, as WidgetKit's `reloadAllTimelines()`. Returns a decision per widget.
    @discardableResult
    public func reloadAllTimelines(foreground: Bool = false) throws(WidgetCenterError) -> [WidgetReloadDecision] {
        try reload(ReloadMethod.Parameters(all: true, foreground: foreground ? true : nil))
    }

    private func reload(_ parameters: ReloadMethod.Parameters) throws(WidgetCenterError) -> [WidgetReloadDecision] {
        let reply = try endpoint.withClient { calls throws(ControlClientError) in
            try calls.call(ReloadMethod.self, parameters)
        }
        return try WidgetReloadDecision.decisions(reply.decisions)
    }

    /// The widgets the user placed, as WidgetKit's `getCurrentConfigurations(_:)`. `completion` runs once, on a
    /// background queue.
    public func getCurrentConfigurations(
        _ completion: @escaping @Sendable (Result<[WidgetInfo], WidgetCenterError>) -> Void
    ) {
        let endpoint = self.endpoint
        DispatchQueue.global().async {
            completion(Result { () throws(WidgetCenterError) in try Self.configurations(endpoint) })
        }
    }

    /// The widgets the user placed, as WidgetKit's `currentConfigurations()`.
    public func currentConfigurations() async throws(WidgetCenterError) -> [WidgetInfo] {
        let result = await withCheckedContinuation { continuation in
            getCurrentConfigurations { continuation.resume(returning: $0) }
        }
        return try result.get()
    }

    private static func configurations(_ endpoint: DaemonEndpoint) throws(WidgetCenterError) -> [WidgetInfo] {
        let reply = try endpoint.withClient { calls throws(ControlClientError) in
            try calls.call(ListMethod.self, NoParameters())
        }
        return reply.widgets.map(WidgetInfo.init)
    }
}
