import WidgetProtocol
import WidgetSchedulerCore

/// Who may call what on the control socket. Pure: the peer, the method and the kinds it concerns go in, a verdict
/// comes out; the owner lookup is a parameter.
///
/// - A process a provider run started (`PeerCredentials.isProvider`) may call nothing, whatever its uid (it has the
///   daemon's): a provider's request carries all it needs, a read such as `Options` would start providers from
///   inside a run, and a `Watch` would hold the daemon's memory for a guest.
/// - Read methods are open to every other local user, but a group's data only to its readers (`GroupDataAccess`).
/// - `DataGet`, `DataList`, `DataSet` and `DataDelete` are decided by the group's readers and writers
///   (`checkGroupData`); a `DataSet` that reloads a kind also needs the right to reload it.
/// - `Reload`, `Add`, `Remove`, `Configure` and a `DataSet`'s reload need uid 0, the daemon's uid, membership of
///   the admin group (`widget-scheduler`, when it exists), or ownership of every kind the call concerns.
/// - `foreground` needs uid 0, the daemon's uid, or ownership of every kind concerned: group membership is not
///   enough, so the budget cannot be dodged.
/// - A call is decided whole: when the peer owns some of the kinds it reaches and not others (`reload --all` by one
///   kind's owner), it is refused, and the refusal names the kinds the peer does not own and those it does, so the
///   caller can ask again for its own. Nothing of a refused call is carried out.
public struct Authorization: Sendable, Hashable {
    /// Why a call was allowed, for the log.
    public enum Basis: String, Sendable, Hashable {
        case openMethod = "open method"
        case root
        case daemonUser = "daemon user"
        case adminGroup = "admin group"
        case kindOwner = "kind owner"
    }

    /// Why a provider's process is refused, whatever it calls.
    public static let providerRefusal = "processes started by a provider run have no control rights"

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
        if peer.isProvider { return .denied(reason: Self.providerRefusal) }
        if !method.isPrivileged && !foreground { return .allowed(.openMethod) }
        if peer.uid == 0 { return .allowed(.root) }
        if peer.uid == daemonUID { return .allowed(.daemonUser) }
        let notOwned = kinds.filter { !(owners($0)?.includes(peer) ?? false) }
        let ownsAll = !kinds.isEmpty && notOwned.isEmpty
        if foreground {
            if ownsAll { return .allowed(.kindOwner) }
            return .denied(reason: "foreground reloads need root, uid \(daemonUID) (the daemon) or ownership of "
                + describe(kinds) + "; " + lacking(peer, kinds: kinds, notOwned: notOwned))
        }
        if let adminGroupID, peer.isMember(of: adminGroupID) { return .allowed(.adminGroup) }
        if ownsAll { return .allowed(.kindOwner) }
        var ways = ["root", "uid \(daemonUID) (the daemon)"]
        if adminGroupID != nil { ways.append("membership of group \(Self.adminGroupName)") }
        ways.append("ownership of " + describe(kinds))
        return .denied(reason: "\(method.rawValue) needs " + ways.joined(separator: ", ").replacingLastComma()
            + "; " + lacking(peer, kinds: kinds, notOwned: notOwned))
    }

    /// What the peer lacks: "uid 1000 has none of these", or, when it owns some of the kinds, which it does not
    /// own and which it does: "uid 1000 does not own kind clock (it owns kind weather: ask for that kind alone)".
    private func lacking(_ peer: PeerCredentials, kinds: Set<String>, notOwned: Set<String>) -> String {
        let owned = kinds.subtracting(notOwned)
        guard !owned.isEmpty else { return "uid \(peer.uid) has none of these" }
        let alone = owned.count == 1 ? "that kind alone" : "those kinds alone"
        return "uid \(peer.uid) does not own " + name(notOwned) + " (it owns " + name(owned) + ": ask for " + alone
            + ")"
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

    /// Whether `peer` is an administrator: root, the daemon's uid, or a member of the admin group.
    public func isAdministrator(_ peer: PeerCredentials) -> Bool {
        !peer.isProvider
            && (peer.uid == 0 || peer.uid == daemonUID || adminGroupID.map(peer.isMember(of:)) == true)
    }

    /// Checks `access` to `group`'s data by its `declarations` (`GroupDataAccess`): `PermissionDenied` when the
    /// peer is not among the group's readers or writers, `InvalidParameter` (group) when no manifest declares it.
    @discardableResult
    public func checkGroupData(
        _ access: GroupDataAccess.Access, group: String, declarations: [GroupDataAccess.Declaration],
        method: ControlMethod, peer: PeerCredentials
    ) throws(ControlError) -> GroupDataAccess.Basis {
        guard !peer.isProvider else {
            throw ControlError.permissionDenied(method: method.rawValue, reason: Self.providerRefusal)
        }
        let caller = GroupDataAccess.Caller(uid: peer.uid, groupIDs: [peer.gid] + peer.groups,
                                            isAdministrator: isAdministrator(peer))
        switch GroupDataAccess.decide(access, group: group, declarations: declarations, caller: caller) {
        case .allowed(let basis): return basis
        case .denied(let reason): throw ControlError.permissionDenied(method: method.rawValue, reason: reason)
        case .undeclared(let reason): throw ControlError.invalidParameter("group", reason: reason)
        }
    }

    /// Refuses every call of a provider's process with `PermissionDenied`, read methods included; other peers pass
    /// (their calls are checked per method by `check`).
    public func admit(method: ControlMethod, peer: PeerCredentials) throws(ControlError) {
        guard peer.isProvider else { return }
        throw ControlError.permissionDenied(method: method.rawValue, reason: Self.providerRefusal)
    }

    private func describe(_ kinds: Set<String>) -> String {
        switch kinds.count {
        case 0: return "the kind concerned"
        case 1: return name(kinds)
        default: return "every kind concerned"
        }
    }

    /// "kind a" or "kinds a, b", sorted.
    private func name(_ kinds: Set<String>) -> String {
        kinds.count == 1 ? "kind \(kinds.first ?? "")" : "kinds " + kinds.sorted().joined(separator: ", ")
    }
}

extension String {
    /// "a, b, c" as "a, b or c".
    fileprivate func replacingLastComma() -> String {
        guard let range = range(of: ", ", options: .backwards) else { return self }
        return replacingCharacters(in: range, with: " or ")
    }
}
