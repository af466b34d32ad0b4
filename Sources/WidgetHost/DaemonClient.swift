import NIOPosix
import WidgetControlClient
import WidgetProtocol

/// The host's way to call the daemon: the project's blocking `ControlClient`, one connection a call, run on NIO's
/// thread pool so that no event loop or task executor ever blocks on the socket.
public struct DaemonClient: Sendable {
    public let socketPath: String
    let pool: NIOThreadPool

    public init(socketPath: String, pool: NIOThreadPool = .singleton) {
        self.socketPath = socketPath
        self.pool = pool
    }

    /// Calls `method`; a Varlink error comes back as `ControlClientError.remote`.
    public func call<Method: VarlinkMethod & SendableMetatype>(
        _ method: Method.Type, _ parameters: Method.Parameters, timeout: Double = 60
    ) async throws(ControlClientError) -> Method.Reply {
        let path = socketPath
        do {
            return try await pool.runIfActive {
                let client = try ControlClient(path: path)
                return try client.call(Method.self, parameters, timeout: timeout)
            }
        } catch let error as ControlClientError {
            throw error
        } catch {
            throw .io("\(error)")
        }
    }
}
