#if canImport(Glibc)
import Glibc
#endif

/// Who is at the other end of a Unix socket, from the kernel (`SO_PEERCRED`), with the peer's groups
/// (`SO_PEERGROUPS`, or the user's groups from `getgrouplist` on kernels without it).
public struct PeerCredentials: Sendable, Hashable, CustomStringConvertible {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32
    /// The primary and supplementary groups.
    public var groups: [UInt32]

    public init(pid: Int32, uid: UInt32, gid: UInt32, groups: [UInt32] = []) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
        self.groups = groups
    }

    /// Whether the peer belongs to group `gid`, as primary or supplementary group.
    public func isMember(of gid: UInt32) -> Bool {
        self.gid == gid || groups.contains(gid)
    }

    public var description: String { "pid \(pid) uid \(uid) gid \(gid)" }

    /// Reads the credentials of the peer of connected Unix socket `fd`.
    public static func of(socket fd: Int32) throws(SystemCallError) -> PeerCredentials {
        var credentials = KernelCredentials()
        var length = socklen_t(MemoryLayout<KernelCredentials>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else {
            throw SystemCallError(call: "getsockopt(SO_PEERCRED)", errno: errno)
        }
        let groups = peerGroups(socket: fd) ?? userGroups(uid: credentials.uid, gid: credentials.gid)
        return PeerCredentials(pid: credentials.pid, uid: credentials.uid, gid: credentials.gid, groups: groups)
    }

    /// `struct ucred`, which Glibc hides behind _GNU_SOURCE: three 32-bit fields, laid out as in C.
    private struct KernelCredentials {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
    }

    /// The peer's groups as the kernel saw them at connect time; nil if the kernel does not say.
    private static func peerGroups(socket fd: Int32) -> [UInt32]? {
        let peerGroupsOption: Int32 = 59  // SO_PEERGROUPS, Linux 4.13+
        var groups = [gid_t](repeating: 0, count: 64)
        for _ in 0..<2 {
            var length = socklen_t(groups.count * MemoryLayout<gid_t>.size)
            if getsockopt(fd, SOL_SOCKET, peerGroupsOption, &groups, &length) == 0 {
                return Array(groups.prefix(Int(length) / MemoryLayout<gid_t>.size))
            }
            guard errno == ERANGE else { return nil }
            groups = [gid_t](repeating: 0, count: Int(length) / MemoryLayout<gid_t>.size + 1)
        }
        return nil
    }

    /// The groups of user `uid` from the user database; just `gid` when the user is unknown.
    static func userGroups(uid: UInt32, gid: UInt32) -> [UInt32] {
        guard let name = UserDatabase.userName(uid: uid) else { return [gid] }
        var count: Int32 = 32
        var groups = [gid_t](repeating: 0, count: Int(count))
        for _ in 0..<4 {
            let previous = count
            if getgrouplist(name, gid, &groups, &count) >= 0 {
                return Array(groups.prefix(Int(count)))
            }
            count = max(count, previous * 2)
            groups = [gid_t](repeating: 0, count: Int(count))
        }
        return [gid]
    }
}
