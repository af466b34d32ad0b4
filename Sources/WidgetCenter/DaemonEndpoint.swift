import Foundation
import WidgetControlClient
import WidgetProtocol

/// Where the daemon listens and how long to wait for it: each call opens a connection, makes its calls and closes
/// it, so an app holds nothing between calls and a daemon restarted meanwhile is simply found again.
struct DaemonEndpoint: Sendable, Hashable {
    /// The socket named by the app, or nil for `WIDGET_SCHEDULER_SOCKET`, else the system socket.
    var socketPath: String?
    /// The longest wait for one reply, in seconds.
    var timeout: Double

    /// The path connected to: read at each call, so a variable set after start-up is honoured.
    var resolvedPath: String {
        ControlClient.socketPath(option: socketPath, environment: ProcessInfo.processInfo.environment)
    }

    /// Connects, runs `body` with the client and turns any failure into a `WidgetCenterError`.
    func withClient<Result>(
        _ body: (DaemonCalls) throws(ControlClientError) -> Result
    ) throws(WidgetCenterError) -> Result {
        do {
            let client = try ControlClient(path: resolvedPath)
            return try body(DaemonCalls(client: client, timeout: timeout))
        } catch {
            throw WidgetCenterError(error)
        }
    }
}

/// One connection's calls, each with the endpoint's timeout.
struct DaemonCalls {
    let client: ControlClient
    let timeout: Double

    func call<Method: VarlinkMethod>(
        _ method: Method.Type, _ parameters: Method.Parameters
    ) throws(ControlClientError) -> Method.Reply {
        try client.call(method, parameters, timeout: timeout)
    }
}
