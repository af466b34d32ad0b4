import CSpawn

#if canImport(Glibc)
import Glibc
#endif

/// A cgroup of its own for every provider run, below a cgroup2 directory this process may manage: the strong form of
/// containment. Whatever a provider does (a new session, a double fork, a process that leaves the process tree), its
/// processes stay in its run's cgroup, since only a write to a `cgroup.procs` moves a process out, which the sandbox's
/// Landlock rules refuse, and `clone3`'s `CLONE_INTO_CGROUP`, which its seccomp filter refuses. When the run ends,
/// `cgroup.kill` (Linux 5.14) kills them all at once. Where the cgroup offers the `memory` and `pids` controllers, the
/// manifest's `memory-max` and `tasks-max` cap the run as a whole (`memory.max`, with no swap beyond it and the whole
/// run killed on OOM, `memory.oom.group`; `pids.max`), not each process.
///
/// The daemon gets its cgroup from systemd (`Delegate=yes`, which marks the service's cgroup with the `user.delegate`
/// attribute): it moves itself into `supervisor` below it (a cgroup with processes of its own may not hand
/// controllers down), enables the controllers below, and makes each run's cgroup in `runs`. A child moves itself into
/// its run's cgroup before it execs (`cspawn_job.cgroup_procs_fd`), so the provider never runs outside it.
public final class RunCgroups {
    /// Why runs get no cgroups of their own, or a run did not get one.
    public struct Unavailable: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// Where each run's cgroup is made.
    public let directory: String
    /// The controllers every run's cgroup has: "memory", "pids", both or neither.
    public let controllers: Set<String>
    private var made: UInt64 = 0
    /// Cgroups of ended runs whose last process was still going: removed later (`removeEnded()`).
    private(set) var awaitingRemoval: [String] = []

    /// The controllers runs are given when the cgroup offers them.
    static let wanted = ["memory", "pids"]

    /// The cgroup systemd delegated to this process's service, arranged for runs. Throws why not: no cgroup2
    /// hierarchy, a cgroup not delegated (`Delegate=` off, or not a service), a kernel without `cgroup.kill`, or a
    /// cgroup this process cannot write (the unit's `ReadWritePaths=` does not name it).
    public static func delegated() throws(Unavailable) -> RunCgroups {
        let own = try ownCgroup()
        var mark = [UInt8](repeating: 0, count: 8)
        let length = cspawn_get_xattr(own, "user.delegate", &mark, mark.count)
        guard length > 0, mark[0] == UInt8(ascii: "1") else {
            throw Unavailable(description: "\(own) is not delegated to the service (Delegate=yes in its unit)")
        }
        guard access(own + "/cgroup.kill", F_OK) == 0 else {
            throw Unavailable(description: "this kernel has no cgroup.kill (Linux 5.14)")
        }
        // A cgroup with processes of its own cannot enable controllers for its children: move out of it first.
        let supervisor = own + "/supervisor"
        try makeDirectory(supervisor)
        try write("0", to: supervisor + "/cgroup.procs")
        let offered = try enable(wanted, below: own)
        let runs = own + "/runs"
        try makeDirectory(runs)
        let enabled = try enable(offered, below: runs)
        return RunCgroups(directory: runs, controllers: Set(enabled))
    }

    /// Runs below `directory` (made if missing), a cgroup2 directory this process may make cgroups in, with the
    /// controllers it offers; this process stays where it is. For a daemon given a cgroup by other means than systemd
    /// (the tests).
    public convenience init(directory: String) throws(Unavailable) {
        try Self.makeDirectory(directory)
        guard access(directory + "/cgroup.kill", F_OK) == 0 else {
            throw Unavailable(description: "\(directory) is not a cgroup2 directory, or this kernel has no cgroup.kill")
        }
        let enabled = try Self.enable(Self.wanted, below: directory)
        self.init(directory: directory, controllers: Set(enabled))
    }

    private init(directory: String, controllers: Set<String>) {
        self.directory = directory
        self.controllers = controllers
        removeLeftovers()
    }

    /// A cgroup for one run, with `memoryMax` bytes (memory.max, no swap) and `tasksMax` tasks (pids.max) where the
    /// controllers are there. Throws if it cannot be made; the run then has only its per-process limits.
    func make(memoryMax: UInt64?, tasksMax: Int?) throws(Unavailable) -> RunCgroup {
        // A number a cgroup left from an earlier run still has (its last process still going) is skipped.
        var path = ""
        while true {
            made += 1
            path = directory + "/run-\(made)"
            if mkdir(path, 0o755) == 0 { break }
            guard errno == EEXIST else { throw Self.failure("mkdir", path) }
        }
        do throws(Unavailable) {
            var memoryCapped = false
            if controllers.contains("memory"), let memoryMax {
                try Self.write(String(memoryMax), to: path + "/memory.max")
                // Without it, a run could go on in swap past its cap; the file is missing where swap accounting is off.
                if access(path + "/memory.swap.max", F_OK) == 0 { try Self.write("0", to: path + "/memory.swap.max") }
                // At the cap, the run is killed whole rather than one of its processes.
                try Self.write("1", to: path + "/memory.oom.group")
                memoryCapped = true
            }
            var tasksCapped = false
            if controllers.contains("pids"), let tasksMax {
                try Self.write(String(tasksMax), to: path + "/pids.max")
                tasksCapped = true
            }
            let procs = open(path + "/cgroup.procs", O_WRONLY | O_CLOEXEC)
            guard procs >= 0 else { throw Self.failure("open", path + "/cgroup.procs") }
            return RunCgroup(path: path, procs: procs, memoryCapped: memoryCapped, tasksCapped: tasksCapped)
        } catch {
            rmdir(path)
            throw error
        }
    }

    /// Kills everything in an ended run's cgroup and removes it, or leaves it for `removeEnded()` while its processes
    /// are still going.
    func end(_ cgroup: RunCgroup) {
        cgroup.kill()
        if rmdir(cgroup.path) != 0 { awaitingRemoval.append(cgroup.path) }
    }

    /// Removes the cgroups of ended runs whose processes are gone by now; returns how many still wait.
    @discardableResult
    func removeEnded() -> Int {
        awaitingRemoval.removeAll { rmdir($0) == 0 || errno == ENOENT }
        return awaitingRemoval.count
    }

    /// Kills and removes run cgroups a previous daemon left (one that was killed without its service's cgroup being
    /// emptied, as outside systemd).
    private func removeLeftovers() {
        guard let entries = opendir(directory) else { return }
        defer { closedir(entries) }
        while let entry = readdir(entries) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name.hasPrefix("run-") else { continue }
            let path = directory + "/" + name
            _ = try? Self.write("1", to: path + "/cgroup.kill")
            if rmdir(path) != 0 { awaitingRemoval.append(path) }
        }
    }

    // MARK: - The cgroup file system

    /// This process's cgroup2 directory: its `0::` line of /proc/self/cgroup below the cgroup2 mount whose root is
    /// the hierarchy's (under a hybrid hierarchy, /sys/fs/cgroup/unified).
    static func ownCgroup() throws(Unavailable) -> String {
        guard let membership = readText("/proc/self/cgroup"),
              let line = membership.split(separator: "\n").first(where: { $0.hasPrefix("0::") })
        else {
            throw Unavailable(description: "this process is in no cgroup2 hierarchy")
        }
        let path = String(line.dropFirst(3))
        guard let mounts = readText("/proc/self/mountinfo") else {
            throw Unavailable(description: "/proc/self/mountinfo cannot be read")
        }
        for mount in mounts.split(separator: "\n") {
            // ID PARENT MAJOR:MINOR ROOT MOUNTPOINT OPTIONS [TAGS...] - FSTYPE SOURCE SUPEROPTIONS
            let halves = mount.split(separator: " - ", maxSplits: 1)
            guard halves.count == 2, halves[1].hasPrefix("cgroup2 ") else { continue }
            let fields = halves[0].split(separator: " ")
            guard fields.count >= 5, fields[3] == "/" else { continue }
            return String(fields[4]) + (path == "/" ? "" : path)
        }
        throw Unavailable(description: "no cgroup2 file system is mounted")
    }

    private static func readText(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = read(fd, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes.append(contentsOf: chunk[..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func write(_ text: String, to path: String) throws(Unavailable) {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("open", path) }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw failure("write \"\(text)\" to", path) }
    }

    private static func makeDirectory(_ path: String) throws(Unavailable) {
        guard mkdir(path, 0o755) == 0 || errno == EEXIST else { throw failure("mkdir", path) }
    }

    private static func failure(_ what: String, _ path: String) -> Unavailable {
        Unavailable(description: "cannot \(what) \(path): \(String(cString: strerror(errno)))")
    }

    /// Enables those of `names` that `directory` offers for its children; returns them.
    private static func enable(_ names: [String], below directory: String) throws(Unavailable) -> [String] {
        let offered = Set((readText(directory + "/cgroup.controllers") ?? "").split(whereSeparator: \.isWhitespace)
            .map(String.init))
        let enabling = names.filter { offered.contains($0) }
        guard !enabling.isEmpty else { return [] }
        try write(enabling.map { "+" + $0 }.joined(separator: " "), to: directory + "/cgroup.subtree_control")
        return enabling
    }
}

/// One run's cgroup (`RunCgroups.make`): held from its spawn to its end.
final class RunCgroup {
    let path: String
    /// Its `cgroup.procs`, open for writing: the child writes itself into it before it execs.
    let procs: Int32
    /// Whether `memory.max` and `pids.max` cap the run.
    let memoryCapped: Bool
    let tasksCapped: Bool

    init(path: String, procs: Int32, memoryCapped: Bool, tasksCapped: Bool) {
        self.path = path
        self.procs = procs
        self.memoryCapped = memoryCapped
        self.tasksCapped = tasksCapped
    }

    deinit {
        close(procs)
    }

    /// Kills every process in the cgroup (`cgroup.kill`).
    func kill() {
        _ = try? RunCgroups.write("1", to: path + "/cgroup.kill")
    }

    /// How many times the kernel's OOM killer acted in the cgroup at its memory cap (`memory.events`' `oom_kill`).
    var oomKills: Int {
        guard memoryCapped else { return 0 }
        return Self.field("oom_kill", in: path + "/memory.events") ?? 0
    }

    /// The most memory the run's processes used together (`memory.peak`, Linux 5.19), in bytes.
    var peakMemoryBytes: UInt64? {
        guard memoryCapped, let text = Self.text(path + "/memory.peak") else { return nil }
        return text.split(whereSeparator: \.isWhitespace).first.flatMap { UInt64($0) }
    }

    private static func text(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = read(fd, &bytes, bytes.count)
        guard count > 0 else { return nil }
        return String(decoding: bytes[..<count], as: UTF8.self)
    }

    private static func field(_ name: String, in path: String) -> Int? {
        guard let text = text(path) else { return nil }
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2, parts[0] == name { return Int(parts[1]) }
        }
        return nil
    }
}
