import WidgetSchedulerCore

/// The users and groups a manifest names as owners of its kind (`owner-users`, `owner-groups`), resolved to ids.
/// Owners may reload, configure and write data for the kind, and use `foreground`.
public struct KindOwners: Sendable, Hashable {
    public var userIDs: Set<UInt32>
    public var groupIDs: Set<UInt32>

    public init(userIDs: Set<UInt32> = [], groupIDs: Set<UInt32> = []) {
        self.userIDs = userIDs
        self.groupIDs = groupIDs
    }

    /// Resolves manifest names (or numeric ids) through the user and group databases; names that resolve to nothing
    /// are returned in `unresolved` so the caller can log them against the manifest.
    public static func resolving(users: [String], groups: [String]) -> (owners: KindOwners, unresolved: [String]) {
        var owners = KindOwners()
        var unresolved: [String] = []
        for user in users {
            if let uid = UserDatabase.userID(named: user) {
                owners.userIDs.insert(uid)
            } else {
                unresolved.append(user)
            }
        }
        for group in groups {
            if let gid = UserDatabase.groupID(named: group) {
                owners.groupIDs.insert(gid)
            } else {
                unresolved.append(group)
            }
        }
        return (owners, unresolved)
    }

    /// The same users and groups, as the pure rules take them.
    public var principals: GroupDataAccess.Principals {
        GroupDataAccess.Principals(userIDs: userIDs, groupIDs: groupIDs)
    }

    /// Whether `peer` is one of the owners, by uid or by any of its groups.
    public func includes(_ peer: PeerCredentials) -> Bool {
        userIDs.contains(peer.uid) || groupIDs.contains(peer.gid) || peer.groups.contains { groupIDs.contains($0) }
    }
}
