import Testing
import WidgetSchedulerCore

/// Issue 29 §6: a group's data is private to its readers and writers. Alice (uid 1000) owns the weather kind; group
/// 500 (bob's) reads the weather group; carol (uid 1002) is a stranger; uid 1003 is an administrator.
@Suite struct GroupDataAccessTests {
    typealias Access = GroupDataAccess.Access

    static let alice = GroupDataAccess.Caller(uid: 1000, groupIDs: [1000], isAdministrator: false)
    static let bob = GroupDataAccess.Caller(uid: 1001, groupIDs: [1001, 500], isAdministrator: false)
    static let carol = GroupDataAccess.Caller(uid: 1002, groupIDs: [1002], isAdministrator: false)
    static let admin = GroupDataAccess.Caller(uid: 1003, groupIDs: [1003], isAdministrator: true)

    /// Owners alone: the manifest names no readers or writers.
    static let ownersOnly = GroupDataAccess.Declaration(
        manifest: "/p/weather.toml", owners: GroupDataAccess.Principals(userIDs: [1000]))
    /// Readers of group 500, writers as the owners.
    static let readersDeclared = GroupDataAccess.Declaration(
        manifest: "/p/weather.toml", readers: GroupDataAccess.Principals(groupIDs: [500]),
        owners: GroupDataAccess.Principals(userIDs: [1000]))
    /// Writer carol, readers none at all (an empty list), owners alice.
    static let writerCarolNoReaders = GroupDataAccess.Declaration(
        manifest: "/p/radar.toml", readers: GroupDataAccess.Principals(),
        writers: GroupDataAccess.Principals(userIDs: [1002]), owners: GroupDataAccess.Principals(userIDs: [1000]))

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var access: Access
        var declarations: [GroupDataAccess.Declaration]
        var caller: GroupDataAccess.Caller
        var expected: GroupDataAccess.Basis?
        var undeclared = false
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "the owner reads", access: .read, declarations: [ownersOnly], caller: alice, expected: .writer),
        Case(name: "the owner writes", access: .write, declarations: [ownersOnly], caller: alice, expected: .writer),
        Case(name: "the owner deletes", access: .delete, declarations: [ownersOnly], caller: alice,
             expected: .writer),
        Case(name: "a stranger may not read", access: .read, declarations: [ownersOnly], caller: carol,
             expected: nil),
        Case(name: "a stranger may not write", access: .write, declarations: [ownersOnly], caller: carol,
             expected: nil),
        Case(name: "a declared reader group reads", access: .read, declarations: [readersDeclared], caller: bob,
             expected: .reader),
        Case(name: "a reader may not write", access: .write, declarations: [readersDeclared], caller: bob,
             expected: nil),
        Case(name: "a reader may not delete", access: .delete, declarations: [readersDeclared], caller: bob,
             expected: nil),
        Case(name: "declared readers leave the owners their writing", access: .write,
             declarations: [readersDeclared], caller: alice, expected: .writer),
        Case(name: "declared writers replace the owners", access: .write, declarations: [writerCarolNoReaders],
             caller: alice, expected: nil),
        Case(name: "a writer reads", access: .read, declarations: [writerCarolNoReaders], caller: carol,
             expected: .writer),
        Case(name: "an empty readers list leaves readers none", access: .read, declarations: [writerCarolNoReaders],
             caller: bob, expected: nil),
        Case(name: "two manifests: their readers and writers add up", access: .read,
             declarations: [writerCarolNoReaders, readersDeclared], caller: bob, expected: .reader),
        Case(name: "two manifests: either's writers write", access: .write,
             declarations: [writerCarolNoReaders, readersDeclared], caller: alice, expected: .writer),
        Case(name: "an administrator reads", access: .read, declarations: [ownersOnly], caller: admin,
             expected: .administrator),
        Case(name: "an administrator writes", access: .write, declarations: [writerCarolNoReaders], caller: admin,
             expected: .administrator),
        Case(name: "nobody sets a value in an undeclared group", access: .write, declarations: [], caller: admin,
             expected: nil, undeclared: true),
        Case(name: "an administrator reads what an undeclared group holds", access: .read, declarations: [],
             caller: admin, expected: .administrator),
        Case(name: "an administrator deletes from an undeclared group", access: .delete, declarations: [],
             caller: admin, expected: .administrator),
        Case(name: "a stranger may not read an undeclared group", access: .read, declarations: [], caller: alice,
             expected: nil, undeclared: true),
    ]

    @Test("who may read and write a group's data", arguments: cases)
    func decide(_ example: Case) {
        let verdict = GroupDataAccess.decide(example.access, group: "weather", declarations: example.declarations,
                                             caller: example.caller)
        switch verdict {
        case .allowed(let basis):
            #expect(basis == example.expected, "\(verdict)")
        case .denied(let reason):
            #expect(example.expected == nil && !example.undeclared, "\(verdict)")
            #expect(reason.contains("uid \(example.caller.uid)"), "\(reason)")
            #expect(reason.contains(example.access == .read ? "readers" : "writers"), "\(reason)")
            for declaration in example.declarations { #expect(reason.contains(declaration.manifest), "\(reason)") }
        case .undeclared(let reason):
            #expect(example.undeclared, "\(verdict)")
            #expect(reason.hasPrefix("no provider manifest declares group weather"), "\(reason)")
        }
    }
}
