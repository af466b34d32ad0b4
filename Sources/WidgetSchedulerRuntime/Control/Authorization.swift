import WidgetProtocol

/// Who may call what on the control socket. Pure: the peer, the method and the kinds it concerns go in, a verdict
/// comes out; the owner lookup is a parameter.
///
/// - Read methods are open to every local user.
/// - `Reload`, `Add`, `Remove`, `Configure`, `DataSet` and `DataDelete` need uid 0, the daemon's uid, membership of
///   the admin group (`widget-scheduler`, when it exists), or ownership of every kind the call concerns.
/// - `foreground` needs uid 0, the daemon's uid, or ownership of every kind concerned: group membership is not
///   enough, so the budget cannot be dodged.
public struct Authorization: Sendable, Hashable {
    /// Why a call was allowed, for the log.
    public enum Basis: String, Sendable, Hashable {
        case openMethod = "open method"
        case root
        case daemonUser = "daemon user"
        case adminGroup = "admin group"
        case kindOwner = "kind owner"
    }

    /// The decision on one call.
    public enum Verdict: Sendable, Hashable {
        case allowed(Basis)
        case denied(reason: String)

        public var isAllowed: Bool {
            if case .allowed = self { return true }
            return false
        }
    }

    /// The name of the group whose members may change state.
    public static let adminGroupName = "widget-scheduler"

    /// The daemon's own uid.
    public var daemonUID: UInt32
    /// The gid of the admin group, nil when the group does not exist.
    public var adminGroupID: UInt32?

    public init(daemonUID: UInt32, adminGroupID: UInt32?) {
        self.daemonUID = daemonUID
        self.adminGroupID = adminGroupID
    }

    /// The rules for the running daemon: its effective uid and the admin group if the group database has it.
    public static func forCurrentProcess() -> Authorization {
        Authorization(daemonUID: currentEffectiveUID(), adminGroupID: UserDatabase.groupID(named: adminGroupName))
    }

    /// Decides whether `peer` may call `method` on `kinds` (the kinds of every widget the call touches), with the
    /// `foreground` flag or not. `owners` gives a kind's owners, nil when the manifest names none.
    public func decide(
        method: ControlMethod, kinds: Set<String>, foreground: Bool, peer: PeerCredentials,
        owners: (String) -> KindOwners?
    ) -> Verdict {
        if !method.isPrivileged && !foreground { return .allowed(.openMethod) }
        if peer.uid == 0 { return .allowed(.root) }
        if peer.uid == daemonUID { return .allowed(.daemonUser) }
        let ownsAll = !kinds.isEmpty && kinds.allSatisfy { owners($0)?.includes(peer) ?? false }
        if foreground {
            if ownsAll { return .allowed(.kindOwner) }
            return .denied(reason: "foreground reloads need root, uid \(daemonUID) (the daemon) or ownership of "
                + describe(kinds) + "; uid \(peer.uid) has none of these")
        }
        if let adminGroupID, peer.isMember(of: adminGroupID) { return .allowed(.adminGroup) }
        if ownsAll { return .allowed(.kindOwner) }
        var ways = ["root", "uid \(daemonUID) (the daemon)"]
        if adminGroupID != nil { ways.append("membership of group \(Self.adminGroupName)") }
        ways.append("ownership of " + describe(kinds))
        return .denied(reason: "\(method.rawValue) needs " + ways.joined(separator: ", ").replacingLastComma()
            + "; uid \(peer.uid) has none of these")
    }

    /// `decide`, throwing `PermissionDenied` on refusal and returning the basis otherwise.
    @discardableResult
    public func check(
        method: ControlMethod, kinds: Set<String>, foreground: Bool = false, peer: PeerCredentials,
        owners: (String) -> KindOwners?
    ) throws(ControlError) -> Basis {
        switch decide(method: method, kinds: kinds, foreground: foreground, peer: peer, owners: owners) {
        case .allowed(let basis): return basis
        case .denied(let reason): throw ControlError.permissionDenied(method: method.rawValue, reason: reason)
        }
    }

    private func describe(_ kinds: Set<String>) -> String {
        switch kinds.count {
        case 0: return "the kind concerned"
        case 1: return "kind \(kinds.first ?? "")"
        default: return "kinds " + kinds.sorted().joined(separator: ", ")
        }
    }
}

extension String {
    /// "a, b, c" as "a, b or c".
    fileprivate func replacingLastComma() -> String {
        guard let range = range(of: ", ", options: .backwards) else { return self }
        return replacingCharacters(in: range, with: " or ")
    }
}
