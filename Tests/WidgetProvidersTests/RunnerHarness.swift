import CSpawn
import Foundation
import WidgetProviders

#if canImport(Glibc)
import Glibc
#endif

/// Runs real processes through `ProviderRunner` on a private `PollEventLoop`, and checks they left nothing behind.
enum RunnerHarness {
    /// Orphaned grandchildren are reparented to this test process (the container's init does not reap), so that
    /// `groupIsGone` can reap them and tell a dead group from a live one.
    private static let subreaper: Void = { _ = cspawn_become_subreaper() }()

    /// A fresh directory for one test's scripts and files.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("runner-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes an executable script into `directory` and returns its path.
    static func script(_ text: String, named name: String = "provider", in directory: URL) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        return url.path
    }

    /// Writes a script into `directory` and returns the argv that runs it through its `#!` interpreter.
    ///
    /// Tests run in parallel threads, and a script still open for writing in one thread while another spawns is
    /// inherited by that child until its exec: executing the script itself could then fail with ETXTBSY.
    static func interpreted(_ text: String, named name: String = "provider", in directory: URL) throws -> [String] {
        let path = try script(text, named: name, in: directory)
        let firstLine = text.split(separator: "\n", maxSplits: 1).first ?? ""
        let interpreter = firstLine.dropFirst(2).split(separator: " ").map(String.init)
        return interpreter + [path]
    }

    /// Runs one spec to completion.
    static func run(_ spec: ProcessSpec) -> ProcessResult {
        run([spec])[0]
    }

    /// Runs several specs at once on one loop and returns their results in order.
    static func run(_ specs: [ProcessSpec], sandbox: ProviderSandbox? = nil,
                    childDescriptorLimit: rlimit? = nil, cgroups: RunCgroups? = nil,
                    afterStart: ([RunningProcess]) -> Void = { _ in },
                    cgroupFailure: ((RunCgroups.Unavailable) -> Void)? = nil) -> [ProcessResult] {
        subreaper
        let loop = PollEventLoop()
        let runner = ProviderRunner(loop: loop, sandbox: sandbox)
        runner.childDescriptorLimit = childDescriptorLimit
        runner.useCgroups(cgroups, failure: cgroupFailure)
        var results = [ProcessResult?](repeating: nil, count: specs.count)
        var handles: [RunningProcess] = []
        for (index, spec) in specs.enumerated() {
            handles.append(runner.start(spec) { results[index] = $0 })
        }
        afterStart(handles)
        loop.run { results.allSatisfy { $0 != nil } }
        return results.map { $0! }
    }

    /// Whether process group `pgid` has no member left, reaping the orphans of it that were reparented to us.
    /// Waits up to two seconds, because SIGKILLed processes take a moment to die.
    static func groupIsGone(_ pgid: Int32) -> Bool {
        guard pgid > 0 else { return true }
        let deadline = Date().addingTimeInterval(2)
        while Date() < deadline {
            _ = cspawn_reap_group_members(pgid)
            if kill(-pgid, 0) == -1 && errno == ESRCH { return true }
            usleep(10_000)
        }
        return false
    }
}
