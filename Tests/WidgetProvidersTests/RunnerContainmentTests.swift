import Foundation
import Testing
import WidgetProviders

#if canImport(Glibc)
import Glibc
#endif

/// A misbehaving provider, and the reason its run must end with.
struct HostileProvider: CustomStringConvertible, Sendable {
    var name: String
    var script: String
    var timeout = 5.0
    var grace = 1.0
    var memoryMax: UInt64? = 64 << 20
    var expectedReason: String

    var description: String { name }

    static let all: [HostileProvider] = [
        HostileProvider(name: "crashes with SIGSEGV", script: "#!/bin/sh\nkill -SEGV $$\n", expectedReason: "signal"),
        HostileProvider(name: "hangs", script: "#!/bin/sh\nsleep 60\n", timeout: 0.5, expectedReason: "timeout"),
        HostileProvider(
            name: "ignores SIGTERM while hanging", script: "#!/bin/sh\ntrap '' TERM\nsleep 60\n",
            timeout: 0.5, grace: 0.5, expectedReason: "timeout"
        ),
        HostileProvider(
            name: "hangs while its grandchild holds stdout",
            script: "#!/bin/sh\nsleep 60 &\nsleep 60\n", timeout: 0.5, expectedReason: "timeout"
        ),
        HostileProvider(
            name: "prints 10 MB", script: "#!/bin/sh\nhead -c 10000000 /dev/zero\n", expectedReason: "output-too-large"
        ),
        HostileProvider(name: "prints forever", script: "#!/bin/sh\nyes\n", expectedReason: "output-too-large"),
        HostileProvider(
            name: "allocates past its cap",
            script: "#!/usr/bin/env python3\nblock = bytearray(512 * 1024 * 1024)\nprint(len(block))\n",
            expectedReason: "memory"
        ),
        HostileProvider(
            name: "fork-bombs (bounded)",
            script: """
                #!/bin/sh
                bomb() { if [ "$1" -gt 0 ]; then bomb $(($1 - 1)) & bomb $(($1 - 1)) & fi; sleep 60; }
                bomb 6
                """,
            timeout: 1, expectedReason: "timeout"
        ),
        HostileProvider(
            name: "exits 3 with a useful stderr",
            script: "#!/bin/sh\necho 'weather: no API key in /etc/weather.conf' >&2\nexit 3\n", expectedReason: "exit"
        ),
    ]
}

@Suite("Runner containment")
struct RunnerContainmentTests {
    @Test("a hostile provider ends with the right reason within timeout + grace and leaves no process behind",
          arguments: HostileProvider.all)
    func hostileProviderIsContained(_ provider: HostileProvider) throws {
        let directory = try RunnerHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let argv = try RunnerHarness.interpreted(provider.script, in: directory)
        let spec = ProcessSpec(
            argv: argv, timeout: provider.timeout, grace: provider.grace, memoryMax: provider.memoryMax
        )
        let result = RunnerHarness.run(spec)
        #expect(result.failure?.reason.rawValue == provider.expectedReason, "\(result.failure.map(String.init) ?? "success")")
        // The bound is the containment requirement itself (timeout + grace), with room for the spawn and the drain.
        #expect(result.duration < provider.timeout + provider.grace + 1)
        #expect(RunnerHarness.groupIsGone(result.pid))
    }

    @Test func crashReportsTheSignal() throws {
        let directory = try RunnerHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let argv = try RunnerHarness.interpreted("#!/bin/sh\nkill -SEGV $$\n", in: directory)
        let result = RunnerHarness.run(ProcessSpec(argv: argv))
        #expect(result.termination == .signaled(SIGSEGV))
        #expect(result.failure == .signal(SIGSEGV))
        #expect(result.failure?.detail == "killed by SIGSEGV")
    }

    @Test func nonZeroExitKeepsTheStatusAndTheStderrTail() throws {
        let directory = try RunnerHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = "#!/bin/sh\nhead -c 20000 /dev/zero | tr '\\000' x >&2\necho 'weather: no API key' >&2\nexit 3\n"
        let result = RunnerHarness.run(ProcessSpec(argv: try RunnerHarness.interpreted(script, in: directory)))
        #expect(result.failure == .exit(3))
        #expect(result.termination == .exited(3))
        #expect(result.stderrTail.hasSuffix("xxweather: no API key\n"))
        #expect(result.stderrTail.utf8.count == 4096)
    }

    @Test func grandchildHoldingStdoutDoesNotHoldTheRun() throws {
        let directory = try RunnerHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = "#!/bin/sh\nsleep 60 &\necho '{\"entries\": []}'\nexit 0\n"
        let argv = try RunnerHarness.interpreted(script, in: directory)
        let result = RunnerHarness.run(ProcessSpec(argv: argv, timeout: 10))
        #expect(result.failure == nil)
        #expect(String(decoding: result.stdout, as: UTF8.self) == "{\"entries\": []}\n")
        #expect(result.duration < 2, "finished by the drain wait after the child's exit, not by the timeout")
        #expect(RunnerHarness.groupIsGone(result.pid))
    }

    @Test func stdoutPastTheLimitIsCutAtTheLimit() throws {
        let directory = try RunnerHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let argv = try RunnerHarness.interpreted("#!/bin/sh\nhead -c 5000 /dev/zero\n", in: directory)
        let result = RunnerHarness.run(ProcessSpec(argv: argv, stdoutLimit: 4096))
        #expect(result.failure == .outputTooLarge(limit: 4096))
        #expect(result.stdout.count == 4096)
    }

    @Test func memoryCapIsEnforcedAndTold() throws {
        let directory = try RunnerHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Filled with a non-zero byte, so every page is touched and counts in the resident set.
        let script = "#!/usr/bin/env python3\nblock = b'x' * (400 * 1024 * 1024)\nprint(len(block))\n"
        let argv = try RunnerHarness.interpreted(script, in: directory)
        let capped = RunnerHarness.run(ProcessSpec(argv: argv, memoryMax: 64 << 20))
        #expect(capped.failure == .memory(limit: 64 << 20))
        #expect(capped.stderrTail.contains("MemoryError"))
        let roomy = RunnerHarness.run(ProcessSpec(argv: argv, memoryMax: 1 << 30))
        #expect(roomy.failure == nil)
        #expect((roomy.peakMemoryBytes ?? 0) > 400 << 20)
    }

    @Test(arguments: [false, true])
    func childrenGetTheDescriptorLimitTheRunnerIsGiven(sandboxed: Bool) throws {
        let directory = try RunnerHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var own = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &own)
        // The limit is set the moment the spawn returns, after the child's exec: the child looks for up to 2 s for
        // the one it expects, then tells what it has.
        func reporter(expecting soft: UInt64, named name: String) throws -> [String] {
            try RunnerHarness.interpreted("""
                #!/bin/sh
                tries=0
                while [ "$(ulimit -n)" != \(soft) ] && [ $tries -lt 200 ]; do sleep 0.01; tries=$((tries + 1)); done
                echo "$(ulimit -n) $(ulimit -Hn)"
                """, named: name, in: directory)
        }
        let sandbox = sandboxed ? try ProviderSandbox(writablePaths: [directory.path]) : nil
        let given = RunnerHarness.run([ProcessSpec(argv: try reporter(expecting: 200, named: "given"))],
                                      sandbox: sandbox,
                                      childDescriptorLimit: rlimit(rlim_cur: 200, rlim_max: own.rlim_max))[0]
        #expect(given.failure == nil)
        #expect(String(decoding: given.stdout, as: UTF8.self) == "200 \(own.rlim_max)\n")
        let inherited = RunnerHarness.run([ProcessSpec(argv: try reporter(expecting: UInt64(own.rlim_cur),
                                                                           named: "inherited"))],
                                          sandbox: sandbox)[0]
        #expect(String(decoding: inherited.stdout, as: UTF8.self) == "\(own.rlim_cur) \(own.rlim_max)\n")
    }

    @Test func aDescriptorLimitThatCannotBeSetFailsTheRunAndLeavesNoChild() throws {
        let directory = try RunnerHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let argv = try RunnerHarness.interpreted("#!/bin/sh\nsleep 5\n", in: directory)
        // A soft limit above the hard one is EINVAL, whoever asks.
        let result = RunnerHarness.run([ProcessSpec(argv: argv)],
                                       childDescriptorLimit: rlimit(rlim_cur: 300, rlim_max: 200))[0]
        guard case .spawn(let number, let message) = result.failure else {
            Issue.record("expected a spawn failure, got \(String(describing: result.failure))")
            return
        }
        #expect(number == EINVAL)
        #expect(message == "cannot start \(argv[0]) (setting its descriptor limit)")
        #expect(result.duration < 2, "the child was killed, not waited for")
        #expect(RunnerHarness.groupIsGone(result.pid))
    }

    @Test func timeoutTerminatesTheWholeGroupWithinTheGrace() throws {
        let directory = try RunnerHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let argv = try RunnerHarness.interpreted("#!/bin/sh\ntrap '' TERM\nsleep 60 &\nsleep 60\n", in: directory)
        let result = RunnerHarness.run(ProcessSpec(argv: argv, timeout: 0.3, grace: 0.3))
        #expect(result.failure == .timeout(seconds: 0.3))
        #expect(result.termination == .signaled(SIGKILL))
        #expect(result.duration >= 0.6)
        #expect(RunnerHarness.groupIsGone(result.pid))
    }

    @Test func cancelKillsTheGroup() throws {
        let directory = try RunnerHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let argv = try RunnerHarness.interpreted("#!/bin/sh\nsleep 60 &\nsleep 60\n", in: directory)
        let result = RunnerHarness.run([ProcessSpec(argv: argv)]) { handles in handles[0].cancel() }[0]
        #expect(result.failure == .signal(SIGKILL))
        #expect(RunnerHarness.groupIsGone(result.pid))
    }

    @Test func missingProgramIsASpawnFailure() throws {
        let missing = RunnerHarness.run(ProcessSpec(argv: ["/nonexistent/provider"]))
        #expect(missing.failure == .spawn(errno: ENOENT, message: "cannot start /nonexistent/provider"))
        #expect(missing.termination == nil)
        let unknown = RunnerHarness.run(ProcessSpec(argv: ["no-such-provider-anywhere"]))
        #expect(unknown.failure?.reason == .spawn)
        let empty = RunnerHarness.run(ProcessSpec(argv: []))
        #expect(empty.failure?.reason == .spawn)
    }

    @Test func nonExecutableFileIsASpawnFailure() throws {
        let directory = try RunnerHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try RunnerHarness.script("#!/bin/sh\necho hi\n", in: directory)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        let result = RunnerHarness.run(ProcessSpec(argv: [path]))
        #expect(result.failure == .spawn(errno: EACCES, message: "cannot start \(path)"))
    }
}
