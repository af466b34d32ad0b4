import Testing
import WidgetProtocol
import WidgetSchedulerCore
import WidgetSchedulerRuntime

/// One row of the authorization table.
struct AuthorizationCase: Sendable, CustomTestStringConvertible {
    var name: String
    var method: ControlMethod
    var kinds: Set<String>
    var foreground = false
    var peer: PeerCredentials
    var expected: Authorization.Basis?

    var testDescription: String { name }
}

private let daemonUID: UInt32 = 990
private let adminGID: UInt32 = 980
private let alice = PeerCredentials(pid: 10, uid: 1000, gid: 1000, groups: [1000])
private let bob = PeerCredentials(pid: 11, uid: 1001, gid: 1001, groups: [1001, 500])
private let admin = PeerCredentials(pid: 12, uid: 1002, gid: 1002, groups: [1002, adminGID])
private let root = PeerCredentials(pid: 1, uid: 0, gid: 0)
private let daemon = PeerCredentials(pid: 2, uid: daemonUID, gid: daemonUID)
/// A process a provider run started: the daemon's uid, or root's for a daemon run as root, and the admin group.
private let provider = PeerCredentials(pid: 3, uid: daemonUID, gid: daemonUID, groups: [adminGID], isProvider: true)
private let rootProvider = PeerCredentials(pid: 4, uid: 0, gid: 0, isProvider: true)

/// weather is owned by alice; news by group 500 (bob's); clock has no owners.
private func owners(_ kind: String) -> KindOwners? {
    switch kind {
    case "weather": return KindOwners(userIDs: [1000])
    case "news": return KindOwners(groupIDs: [500])
    default: return nil
    }
}

private let table: [AuthorizationCase] = [
    .init(name: "List is open", method: .list, kinds: [], peer: alice, expected: .openMethod),
    .init(name: "Watch is open", method: .watch, kinds: ["clock"], peer: bob, expected: .openMethod),
    .init(name: "Status is open", method: .status, kinds: [], peer: bob, expected: .openMethod),
    .init(name: "root reloads", method: .reload, kinds: ["clock"], peer: root, expected: .root),
    .init(name: "daemon user adds", method: .add, kinds: ["clock"], peer: daemon, expected: .daemonUser),
    .init(name: "admin group removes", method: .remove, kinds: ["clock"], peer: admin, expected: .adminGroup),
    .init(name: "stranger may not reload", method: .reload, kinds: ["clock"], peer: alice, expected: nil),
    .init(name: "stranger may not add", method: .add, kinds: ["clock"], peer: bob, expected: nil),
    .init(name: "owner user reloads own kind", method: .reload, kinds: ["weather"], peer: alice, expected: .kindOwner),
    .init(name: "owner user configures", method: .configure, kinds: ["weather"], peer: alice, expected: .kindOwner),
    .init(name: "owner group writes data", method: .dataSet, kinds: ["news"], peer: bob, expected: .kindOwner),
    .init(name: "owner group deletes data", method: .dataDelete, kinds: ["news"], peer: bob, expected: .kindOwner),
    .init(name: "owner of one kind only", method: .reload, kinds: ["weather", "clock"], peer: alice, expected: nil),
    .init(name: "owner of another kind", method: .reload, kinds: ["news"], peer: alice, expected: nil),
    .init(name: "no kind concerned, no owner", method: .dataSet, kinds: [], peer: alice, expected: nil),
    .init(name: "root foreground", method: .reload, kinds: ["clock"], foreground: true, peer: root, expected: .root),
    .init(name: "daemon foreground", method: .reload, kinds: ["clock"], foreground: true, peer: daemon,
          expected: .daemonUser),
    .init(name: "owner foreground", method: .reload, kinds: ["weather"], foreground: true, peer: alice,
          expected: .kindOwner),
    .init(name: "admin group may not foreground", method: .reload, kinds: ["clock"], foreground: true, peer: admin,
          expected: nil),
    .init(name: "stranger may not foreground", method: .reload, kinds: ["weather"], foreground: true, peer: bob,
          expected: nil),
    .init(name: "a provider may not reload", method: .reload, kinds: ["clock"], peer: provider, expected: nil),
    .init(name: "a provider may not foreground", method: .reload, kinds: ["clock"], foreground: true, peer: provider,
          expected: nil),
    .init(name: "a provider may not remove", method: .remove, kinds: ["clock"], peer: provider, expected: nil),
    .init(name: "a provider may not write data", method: .dataSet, kinds: ["news"], peer: provider, expected: nil),
    .init(name: "a provider run as root may not add", method: .add, kinds: ["clock"], peer: rootProvider,
          expected: nil),
    .init(name: "a provider may not even list", method: .list, kinds: [], peer: provider, expected: nil),
    .init(name: "a provider may not ask for options", method: .options, kinds: [], peer: rootProvider,
          expected: nil),
]

@Suite struct ControlAuthorizationTests {
    private let rules = Authorization(daemonUID: daemonUID, adminGroupID: adminGID)

    @Test(arguments: table)
    func decides(_ row: AuthorizationCase) {
        let verdict = rules.decide(
            method: row.method, kinds: row.kinds, foreground: row.foreground, peer: row.peer, owners: owners)
        if let basis = row.expected {
            #expect(verdict == .allowed(basis))
        } else {
            #expect(!verdict.isAllowed)
        }
    }

    @Test func groupDataIsDecidedByTheGroupsDeclarations() throws {
        let declarations = [GroupDataAccess.Declaration(manifest: "/p/news.toml",
                                                        owners: owners("news")?.principals ?? .init())]
        #expect(try rules.checkGroupData(.write, group: "news", declarations: declarations, method: .dataSet,
                                         peer: bob) == .writer)
        #expect(try rules.checkGroupData(.read, group: "news", declarations: declarations, method: .dataGet,
                                         peer: daemon) == .administrator)
        #expect(try rules.checkGroupData(.read, group: "news", declarations: declarations, method: .dataList,
                                         peer: admin) == .administrator)
        let refusals: [(GroupDataAccess.Access, [GroupDataAccess.Declaration], PeerCredentials, String)] = [
            (.read, declarations, alice, ControlError.Name.permissionDenied),
            (.read, declarations, provider, ControlError.Name.permissionDenied),
            (.write, [], root, ControlError.Name.invalidParameter),
        ]
        for (access, declared, peer, name) in refusals {
            do {
                try rules.checkGroupData(access, group: "news", declarations: declared, method: .dataGet, peer: peer)
                Issue.record("\(peer) allowed to \(access)")
            } catch {
                #expect(error.name == name, "\(error)")
            }
        }
    }

    @Test func groupMembershipCountsOnlyWhenTheGroupExists() {
        let noGroup = Authorization(daemonUID: daemonUID, adminGroupID: nil)
        #expect(!noGroup.decide(method: .reload, kinds: ["clock"], foreground: false, peer: admin, owners: owners)
            .isAllowed)
    }

    @Test func refusalIsAPermissionDeniedErrorThatSaysWhy() {
        do {
            try rules.check(method: .reload, kinds: ["clock"], peer: alice, owners: owners)
            Issue.record("stranger allowed")
        } catch {
            #expect(error.name == ControlError.Name.permissionDenied)
            #expect(error.parameters["method"] == .string("Reload"))
            #expect(error.message == "permission denied: Reload needs root, uid 990 (the daemon), membership of "
                + "group widget-scheduler or ownership of kind clock; uid 1000 has none of these")
        }
    }

    @Test func foregroundRefusalNamesTheWaysIn() {
        let verdict = rules.decide(method: .reload, kinds: ["weather"], foreground: true, peer: admin, owners: owners)
        #expect(verdict == .denied(reason: "foreground reloads need root, uid 990 (the daemon) or ownership of "
            + "kind weather; uid 1002 has none of these"))
    }

    struct RefusalRow: Sendable, CustomTestStringConvertible {
        var name: String
        var method: ControlMethod = .reload
        var kinds: Set<String>
        var foreground = false
        var peer: PeerCredentials
        var reason: String
        var testDescription: String { name }
    }

    static let refusals: [RefusalRow] = [
        RefusalRow(name: "a foreground reload of all by one kind's owner names the kinds it does not own",
                   kinds: ["weather", "clock", "news"], foreground: true, peer: alice,
                   reason: "foreground reloads need root, uid 990 (the daemon) or ownership of every kind concerned; "
                       + "uid 1000 does not own kinds clock, news (it owns kind weather: ask for that kind alone)"),
        RefusalRow(name: "a reload of two kinds by the owner of one", kinds: ["weather", "clock"], peer: alice,
                   reason: "Reload needs root, uid 990 (the daemon), membership of group widget-scheduler or "
                       + "ownership of every kind concerned; uid 1000 does not own kind clock (it owns kind weather: "
                       + "ask for that kind alone)"),
        RefusalRow(name: "owning none of them", kinds: ["weather", "clock"], foreground: true, peer: admin,
                   reason: "foreground reloads need root, uid 990 (the daemon) or ownership of every kind "
                       + "concerned; uid 1002 has none of these"),
        RefusalRow(name: "owning two of three", kinds: ["weather", "news", "clock"], foreground: true,
                   peer: PeerCredentials(pid: 13, uid: 1000, gid: 1000, groups: [1000, 500]),
                   reason: "foreground reloads need root, uid 990 (the daemon) or ownership of every kind concerned; "
                       + "uid 1000 does not own kind clock (it owns kinds news, weather: ask for those kinds alone)"),
    ]

    @Test("a refused call is refused whole, naming the kinds the peer may not touch", arguments: refusals)
    func refusal(_ row: RefusalRow) {
        let verdict = rules.decide(method: row.method, kinds: row.kinds, foreground: row.foreground, peer: row.peer,
                                   owners: owners)
        #expect(verdict == .denied(reason: row.reason))
    }

    @Test func aProvidersProcessIsRefusedEveryMethodWithTheReason() throws {
        for method in ControlMethod.allCases {
            do {
                try rules.admit(method: method, peer: provider)
                Issue.record("\(method) admitted a provider's process")
            } catch {
                #expect(error.name == ControlError.Name.permissionDenied)
                #expect(error.parameters["method"] == .string(method.rawValue))
                #expect(error.message == "permission denied: processes started by a provider run have no control "
                    + "rights")
            }
            try rules.admit(method: method, peer: daemon)
            try rules.admit(method: method, peer: alice)
        }
    }

    @Test func ownersMatchByUserOrAnyGroup() {
        let owners = KindOwners(userIDs: [7], groupIDs: [42])
        #expect(owners.includes(PeerCredentials(pid: 1, uid: 7, gid: 7)))
        #expect(owners.includes(PeerCredentials(pid: 1, uid: 8, gid: 42)))
        #expect(owners.includes(PeerCredentials(pid: 1, uid: 8, gid: 8, groups: [3, 42])))
        #expect(!owners.includes(PeerCredentials(pid: 1, uid: 8, gid: 8, groups: [3])))
    }

    @Test func ownerNamesResolveThroughTheUserDatabase() {
        let resolved = KindOwners.resolving(users: ["root", "1234", "no-such-user-here"], groups: ["root", "nogroup-x"])
        #expect(resolved.owners.userIDs == [0, 1234])
        #expect(resolved.owners.groupIDs == [0])
        #expect(resolved.unresolved == ["no-such-user-here", "nogroup-x"])
    }
}
