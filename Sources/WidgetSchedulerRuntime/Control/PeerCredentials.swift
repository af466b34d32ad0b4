import CSpawn
#if canImport(Glibc)
import Glibc
#endif

/// Who is at the other end of a Unix socket, from the kernel (`SO_PEERCRED`), with the peer's groups
/// (`SO_PEERGROUPS`, or the user's groups from `getgrouplist` on kernels without it), and whether a provider run
/// started it.
public struct PeerCredentials: Sendable, Hashable, CustomStringConvertible {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32
    /// The primary and supplementary groups.
    public var groups: [UInt32]
    /// Whether the peer is a process a provider run started (a provider, or anything below one): it has the daemon's
    /// uid, which by uid alone would make it an administrator.
    public var isProvider: Bool

    public init(pid: Int32, uid: UInt32, gid: UInt32, groups: [UInt32] = [], isProvider: Bool = false) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
        self.groups = groups
        self.isProvider = isProvider
    }

    /// Whether the peer belongs to group `gid`, as primary or supplementary group.
    public func isMember(of gid: UInt32) -> Bool {
        self.gid == gid || groups.contains(gid)
    }

    public var description: String { "pid \(pid) uid \(uid) gid \(gid)" + (isProvider ? " (a provider run's)" : "") }

    /// Reads the credentials of the peer of connected Unix socket `fd`. With `providerAncestor` (the daemon's pid), a
    /// peer with this process's uid is looked up in the process tree (`isProvider`).
    public static func of(socket fd: Int32, providerAncestor: Int32? = nil) throws(SystemCallError) -> PeerCredentials {
        var credentials = KernelCredentials()
        var length = socklen_t(MemoryLayout<KernelCredentials>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else {
            throw SystemCallError(call: "getsockopt(SO_PEERCRED)", errno: errno)
        }
        let groups = peerGroups(socket: fd) ?? userGroups(uid: credentials.uid, gid: credentials.gid)
        var peer = PeerCredentials(pid: credentials.pid, uid: credentials.uid, gid: credentials.gid, groups: groups)
        if let providerAncestor, credentials.uid == geteuid() {
            peer.isProvider = startedBelow(providerAncestor, socket: fd)
        }
        return peer
    }

    /// Whether the peer of `fd` descends from process `ancestor`.
    ///
    /// Providers run with the daemon's uid, so nothing in the peer's credentials tells them from the daemon's own
    /// administrators; what a provider cannot change is where it stands in the process tree. The daemon is a child
    /// subreaper and starts nothing but providers, so everything a provider starts stays below it (orphans are handed
    /// to the daemon, never to init), and every process below it is a provider's. The peer is held by the pidfd the
    /// kernel took at connect time (`SO_PEERPIDFD`, Linux 6.5), and each parent of the walk by a pidfd checked to
    /// still be that parent, so a pid reused meanwhile is never taken for the peer or one of its parents. A peer
    /// that cannot be told (it exited before the walk was done) counts as a provider's: with the daemon's uid and
    /// no provable place outside the daemon's tree, it gets no rights.
    static func startedBelow(_ ancestor: Int32, socket fd: Int32) -> Bool {
        var pid: pid_t = 0
        let pidfd = cspawn_socket_peer_pidfd(fd, &pid)
        guard pidfd >= 0 else { return true }
        defer { close(pidfd) }
        return cspawn_descends_from(pidfd, pid, ancestor) != 0
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
