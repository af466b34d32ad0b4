/// Who may read and write a group's shared data (WidgetKit's App Group), issue 29 §6. Pure: the caller, the access
/// and what the manifests declare go in, a verdict comes out.
///
/// - Each manifest that names the group (`group = "weather"`) declares its readers and writers
///   (`group-reader-users`, `group-reader-groups`, `group-writer-users`, `group-writer-groups`). A manifest that
///   names none of one side gives that side to its kind's owners (`owner-users`, `owner-groups`).
/// - A group's writers are every declaring manifest's writers; its readers are their readers and writers.
/// - Administrators (root, the daemon's uid, the admin group) may do anything to a declared group.
/// - A group no manifest declares has no readers and no writers: writing a value into it is refused for everyone
///   (a typo must not make a new group), and only administrators may read or delete what an older configuration
///   left there.
public enum GroupDataAccess {
    /// What a call does with the group's values.
    public enum Access: String, Sendable, Hashable, CaseIterable {
        /// `DataGet`, `DataList`.
        case read
        /// `DataSet`.
        case write
        /// `DataDelete`: a write, which administrators may also make in an undeclared group, to clean up.
        case delete
    }

    /// Users and unix groups, by id.
    public struct Principals: Sendable, Hashable {
        public var userIDs: Set<UInt32>
        public var groupIDs: Set<UInt32>

        public init(userIDs: Set<UInt32> = [], groupIDs: Set<UInt32> = []) {
            self.userIDs = userIDs
            self.groupIDs = groupIDs
        }

        /// Whether `caller` is one of them, by uid or by any of its groups.
        public func include(_ caller: Caller) -> Bool {
            userIDs.contains(caller.uid) || caller.groupIDs.contains { groupIDs.contains($0) }
        }

        public var isEmpty: Bool { userIDs.isEmpty && groupIDs.isEmpty }
    }

    /// What one manifest that names the group declares. `readers` or `writers` nil: the manifest names none, and
    /// its kind's `owners` stand in.
    public struct Declaration: Sendable, Hashable {
        public var manifest: String
        public var readers: Principals?
        public var writers: Principals?
        public var owners: Principals

        public init(manifest: String, readers: Principals? = nil, writers: Principals? = nil,
                    owners: Principals = Principals()) {
            self.manifest = manifest
            self.readers = readers
            self.writers = writers
            self.owners = owners
        }
    }

    /// The peer asking: its uid, its primary and supplementary groups, and whether it is an administrator.
    public struct Caller: Sendable, Hashable {
        public var uid: UInt32
        public var groupIDs: [UInt32]
        public var isAdministrator: Bool

        public init(uid: UInt32, groupIDs: [UInt32], isAdministrator: Bool) {
            self.uid = uid
            self.groupIDs = groupIDs
            self.isAdministrator = isAdministrator
        }
    }

    /// Why a call was allowed, for the log.
    public enum Basis: String, Sendable, Hashable {
        case administrator
        case reader
        case writer
    }

    /// The decision on one call.
    public enum Verdict: Sendable, Hashable {
        case allowed(Basis)
        /// The caller is not among the group's readers (or writers).
        case denied(reason: String)
        /// No manifest declares the group.
        case undeclared(reason: String)
    }

    /// Decides whether `caller` may `access` `group`, which `declarations` (one per manifest that names it) declare.
    public static func decide(_ access: Access, group: String, declarations: [Declaration],
                              caller: Caller) -> Verdict {
        guard !declarations.isEmpty else {
            let undeclared = "no provider manifest declares group \(group) (group = \"\(group)\")"
            if access == .write {
                return .undeclared(reason: undeclared + ": a value is set only in a group a manifest declares")
            }
            if caller.isAdministrator { return .allowed(.administrator) }
            return .undeclared(reason: undeclared + ": its data is for administrators only")
        }
        if caller.isAdministrator { return .allowed(.administrator) }
        let writers = declarations.map { $0.writers ?? $0.owners }
        if writers.contains(where: { $0.include(caller) }) { return .allowed(.writer) }
        if access == .read, declarations.contains(where: { ($0.readers ?? $0.owners).include(caller) }) {
            return .allowed(.reader)
        }
        let side = access == .read ? "readers" : "writers"
        return .denied(reason: "uid \(caller.uid) is not among group \(group)'s \(side) (declared in "
            + declarations.map(\.manifest).sorted().joined(separator: ", ") + "), nor root, the daemon's uid or "
            + "an administrator")
    }
}
