import WidgetProtocol

/// Which new connections the control socket takes. Pure: it counts the connections it admitted, per uid, and
/// decides on the next one from the peer and the limits.
///
/// - every peer: at most `maximumConnections` in all;
/// - other peers than root and the admin group: at most `maximumConnectionsPerUser` each, and none of the last
///   `adminReservedConnections`, so that however the others fill the socket, an administrator still gets in.
struct ConnectionAdmission: Sendable {
    /// Connections admitted and not yet released.
    private(set) var total = 0
    private var perUser: [UInt32: Int] = [:]

    /// Whether `peer` is root or a member of the admin group (`adminGroupID`, nil when there is none), and not a
    /// provider's process: those have the daemon's uid and group, and no rights at all (`Authorization`).
    static func isAdministrator(_ peer: PeerCredentials, adminGroupID: UInt32?) -> Bool {
        !peer.isProvider && (peer.uid == 0 || adminGroupID.map(peer.isMember(of:)) == true)
    }

    /// Connections user `uid` holds.
    func count(uid: UInt32) -> Int { perUser[uid] ?? 0 }

    /// nil when a connection of `uid` may be admitted, else the error that tells the peer why not.
    func refusal(uid: UInt32, administrator: Bool, limits: ControlLimits) -> ControlError? {
        if total >= limits.maximumConnections {
            return .tooManyConnections(limit: limits.maximumConnections)
        }
        guard !administrator else { return nil }
        let open = limits.maximumConnections - limits.adminReservedConnections
        if total >= open { return .tooManyConnections(limit: open, reserved: limits.adminReservedConnections) }
        if count(uid: uid) >= limits.maximumConnectionsPerUser {
            return .tooManyConnections(limit: limits.maximumConnectionsPerUser, uid: uid)
        }
        return nil
    }

    /// Counts a connection of `uid`.
    mutating func admit(uid: UInt32) {
        total += 1
        perUser[uid, default: 0] += 1
    }

    /// A connection of `uid` closed.
    mutating func release(uid: UInt32) {
        guard let held = perUser[uid] else { return }
        total -= 1
        perUser[uid] = held > 1 ? held - 1 : nil
    }
}
