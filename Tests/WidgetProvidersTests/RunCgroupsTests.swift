import CSpawn
import Foundation
import Testing
@testable import WidgetProviders

/// Runs in cgroups of their own (`RunCgroups`), below a fresh cgroup2 directory next to this process's: each child
/// is in its run's cgroup from its first instruction, and when the run ends everything in it is killed, whatever
/// left the process group, and the cgroup is removed. Needs root and a writable cgroup2 hierarchy with cgroup.kill
/// (Linux 5.14); elsewhere the tests say so and pass without running.
@Suite("Run cgroups")
struct RunCgroupsTests {
    /// A fresh cgroup2 directory for the test, removed at its end; nil where none can be made.
    private final class Scratch {
        let path: String

        init?() {
            guard geteuid() == 0, let own = try? RunCgroups.ownCgroup() else { return nil }
            // The hierarchy's root here (a process in a cgroup of its own may not give controllers to siblings):
            // whichever directory this process's cgroup is, its parent is writable to root.
            let parent = own.hasSuffix("/") ? String(own.dropLast()) : own
            path = parent + "/widget-scheduler-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            guard mkdir(path, 0o755) == 0, access(path + "/cgroup.kill", F_OK) == 0 else {
                rmdir(path)
                return nil
            }
        }

        deinit {
            // The runs' cgroups first (the tests removed them unless they failed), then this one.
            if let entries = try? FileManager.default.contentsOfDirectory(atPath: path) {
                for name in entries where name.hasPrefix("run-") {
                    _ = try? RunCgroups.write("1", to: path + "/" + name + "/cgroup.kill")
                    rmdir(path + "/" + name)
                }
            }
            rmdir(path)
        }
    }

    /// A provider that leaves a setsid sleeper and a double-forked one behind, and reports its own cgroup and their
    /// pids.
    private static let escaping = """
        #!/bin/sh
        setsid sleep 300 < /dev/null > /dev/null 2>&1 &
        echo "setsid $!"
        ( sleep 301 < /dev/null > /dev/null 2>&1 & echo "double $!" ) &
        wait $!
        echo "cgroup $(sed -n 's/^0:://p' /proc/self/cgroup)"
        """

    /// Whether process `pid` is gone: it exited and, if it was this process's to reap (handed over as an orphan to
    /// this subreaper), was reaped. Waits up to 5 s: a process SIGKILLed on another CPU takes a moment.
    private static func isGone(_ pid: Int32) -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            var info = siginfo_t()
            _ = waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG)
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
            // A zombie that is not this process's child is its parent's to reap: it runs no more.
            if let state = stat.split(separator: ")").last?.split(separator: " ").first, state == "Z" {
                return true
            }
            usleep(10_000)
        }
        return false
    }

    @Test func everythingARunLeavesInItsCgroupIsKilledAtItsEndAndTheCgroupRemoved() throws {
        guard let scratch = Scratch() else {
            print("RunCgroupsTests: no writable cgroup2 hierarchy with cgroup.kill here; not run")
            return
        }
        let cgroups = try RunCgroups(directory: scratch.path)
        let directory = try RunnerHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let spec = ProcessSpec(argv: try RunnerHarness.interpreted(Self.escaping, in: directory), timeout: 20)
        let result = RunnerHarness.run([spec], cgroups: cgroups)[0]
        #expect(result.succeeded, "\(result)")
        var report: [String: String] = [:]
        for line in String(decoding: result.stdout, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            if parts.count == 2 { report[parts[0]] = parts[1] }
        }
        let runPath = try #require(report["cgroup"])
        #expect(runPath.hasSuffix("/run-1"), "the provider ran in its run's cgroup: \(runPath)")
        #expect((scratch.path + "/run-1").hasSuffix(runPath), "\(runPath) is below \(scratch.path)")
        for name in ["setsid", "double"] {
            let pid = try #require(report[name].flatMap { Int32($0) }, "\(report)")
            #expect(Self.isGone(pid), "the \(name) escapee outlived its run")
        }
        #expect(result.limits == (cgroups.controllers.contains("memory") ? .cgroup : .cgroupKillOnly))
        // Removed at the run's end, or a moment later once its last process was gone.
        let deadline = Date().addingTimeInterval(5)
        while access(scratch.path + "/run-1", F_OK) == 0 && Date() < deadline {
            cgroups.removeEnded()
            usleep(10_000)
        }
        #expect(access(scratch.path + "/run-1", F_OK) != 0, "the run's cgroup is gone")
    }

    @Test func aSandboxedChildJoinsItsCgroupBeforeItsFirstInstruction() throws {
        guard let scratch = Scratch() else { return }
        let cgroups = try RunCgroups(directory: scratch.path)
        let sandbox = try ProviderSandbox(writablePaths: ["/dev"])
        let spec = ProcessSpec(argv: ["/bin/cat", "/proc/self/cgroup"], timeout: 20)
        let result = RunnerHarness.run([spec], sandbox: sandbox, cgroups: cgroups)[0]
        #expect(result.succeeded, "\(result)")
        let own = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n")
            .first { $0.hasPrefix("0::") }.map(String.init) ?? ""
        #expect(own.hasSuffix("/run-1"), "\(own)")
    }

    @Test func aRunThatCannotHaveACgroupRunsWithItsPerProcessLimitsAndSaysWhy() throws {
        guard let scratch = Scratch() else { return }
        let cgroups = try RunCgroups(directory: scratch.path)
        // What makes the next cgroup impossible: its parent is gone.
        #expect(rmdir(scratch.path) == 0)
        var told: [RunCgroups.Unavailable] = []
        let result = RunnerHarness.run([ProcessSpec(argv: ["/bin/true"])], cgroups: cgroups,
                                       cgroupFailure: { told.append($0) })[0]
        #expect(result.succeeded)
        #expect(result.limits == .process)
        #expect(told.count == 1 && told[0].description.contains("run-1"), "\(told)")
    }

    @Test func withoutCgroupsARunHasPerProcessLimits() {
        let result = RunnerHarness.run(ProcessSpec(argv: ["/bin/true"]))
        #expect(result.limits == .process)
        #expect(!result.limits.capsWholeRun)
    }
}
