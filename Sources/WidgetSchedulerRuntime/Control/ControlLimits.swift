/// What one local user may hold of the control socket, so that no user can deny it to the others: connections, time,
/// and the daemon's memory. Each is a key of the daemon's settings file (docs/scheduling.md lists them).
public struct ControlLimits: Sendable, Hashable {
    /// Connections served at once (`max-connections`); the daemon also keeps it below its descriptor limit.
    public var maximumConnections: Int
    /// Connections one uid may hold (`max-connections-per-user`). Root and the admin group are not held to it.
    public var maximumConnectionsPerUser: Int
    /// The last connections of `maximumConnections` that only root and the admin group may take
    /// (`admin-reserved-connections`), so that others filling the socket cannot lock them out.
    public var adminReservedConnections: Int
    /// Seconds a message may take from its first byte to its NUL (`message-timeout`); the connection is closed after.
    public var messageTimeout: Double
    /// Seconds a connection may stay without traffic while no call of it is open (`idle-timeout`).
    public var idleTimeout: Double
    /// Bytes all connections may hold in the daemon at once, messages being received and replies not yet read
    /// (`buffer-budget`). Past it, the connections holding the most are dropped.
    public var bufferBudget: Int
    /// Bytes of a stream's replies that may wait for a client that does not read them (`watch-backlog-limit`).
    public var watchBacklogLimit: Int

    public init(
        maximumConnections: Int = 4096, maximumConnectionsPerUser: Int = 64, adminReservedConnections: Int = 32,
        messageTimeout: Double = 30, idleTimeout: Double = 60, bufferBudget: Int = 64 << 20,
        watchBacklogLimit: Int = 4 << 20
    ) {
        self.maximumConnections = maximumConnections
        self.maximumConnectionsPerUser = maximumConnectionsPerUser
        self.adminReservedConnections = adminReservedConnections
        self.messageTimeout = messageTimeout
        self.idleTimeout = idleTimeout
        self.bufferBudget = bufferBudget
        self.watchBacklogLimit = watchBacklogLimit
    }

    /// The settings-file keys, in the order the documentation lists them.
    public static let keys = [
        "max-connections", "max-connections-per-user", "admin-reserved-connections", "message-timeout",
        "idle-timeout", "buffer-budget", "watch-backlog-limit",
    ]

    /// The longest timeout a setting may have: a day. Beyond it a timeout is no protection, and the sum with a
    /// monotonic clock reading stays far from overflowing.
    static let longestTimeout: Double = 86_400

    /// Problems with these values, each starting with the setting's key, or an empty list when they are usable.
    public func problems() -> [String] {
        var problems: [String] = []
        func check(_ ok: Bool, _ message: String) { if !ok { problems.append(message) } }
        check(maximumConnections >= 1 && maximumConnections <= 1 << 20,
              "max-connections must be an integer from 1 to 1048576")
        check(maximumConnectionsPerUser >= 1, "max-connections-per-user must be an integer ≥ 1")
        check(adminReservedConnections >= 0 && adminReservedConnections < maximumConnections,
              "admin-reserved-connections must be an integer ≥ 0 and below max-connections")
        check(messageTimeout.isFinite && messageTimeout > 0 && messageTimeout <= Self.longestTimeout,
              "message-timeout must be a number of seconds > 0 and at most 86400")
        check(idleTimeout.isFinite && idleTimeout > 0 && idleTimeout <= Self.longestTimeout,
              "idle-timeout must be a number of seconds > 0 and at most 86400")
        check(bufferBudget >= 1 << 20, "buffer-budget must be a size of at least 1M")
        check(watchBacklogLimit >= 64 << 10 && watchBacklogLimit <= bufferBudget,
              "watch-backlog-limit must be a size of at least 64K and at most buffer-budget")
        return problems
    }

    /// These limits with `maximumConnections` lowered to what `descriptorLimit` leaves once `spare` descriptors are
    /// kept for everything else (state files, provider pipes), and the reserve lowered to fit; nil when they fit.
    public func fitting(descriptorLimit: Int, spare: Int) -> ControlLimits? {
        let room = max(1, descriptorLimit - spare)
        guard maximumConnections > room else { return nil }
        var fitted = self
        fitted.maximumConnections = room
        fitted.adminReservedConnections = min(adminReservedConnections, room / 2)
        return fitted
    }
}
