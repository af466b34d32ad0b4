import Foundation
import Testing
@testable import WidgetProviders

/// Providers spawned in a `ProviderSandbox` write only beneath its paths, whatever their user may write; the thread
/// that runs the runner is not restricted. Each probe reports "written" or "denied" on stdout.
struct RunnerSandboxTests {
    /// A shell provider that tries each write it is asked for, and reports every outcome on one line.
    private static let probe = """
        #!/bin/sh
        try() { if (eval "$2") 2>/dev/null; then printf '%s=written ' "$1"; else printf '%s=denied ' "$1"; fi; }
        try allowed ': > "$ALLOWED/new"'
        try denied ': > "$DENIED/new"'
        try truncate ': > "$DENIED/existing"'
        try append 'echo more >> "$DENIED/existing"'
        try mkdir 'mkdir "$DENIED/directory"'
        try remove 'rm "$DENIED/existing"'
        try renameOut 'mv "$ALLOWED/new" "$DENIED/moved"'
        try stderr 'echo to-stderr > /dev/stderr'
        try devNull 'echo gone > /dev/null'
        printf 'nnp=%s\\n' "$(sed -n 's/^NoNewPrivs:[[:space:]]*//p' /proc/self/status)"
        """

    private struct Places {
        let root: URL
        let allowed: URL
        let denied: URL

        init() throws {
            root = try RunnerHarness.temporaryDirectory()
            allowed = root.appendingPathComponent("allowed")
            denied = root.appendingPathComponent("denied")
            try FileManager.default.createDirectory(at: allowed, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: denied, withIntermediateDirectories: true)
            try Data("state\n".utf8).write(to: denied.appendingPathComponent("existing"))
        }

        func spec() throws -> ProcessSpec {
            var environment = ProcessSpec.minimalEnvironment
            environment["ALLOWED"] = allowed.path
            environment["DENIED"] = denied.path
            return ProcessSpec(argv: try RunnerHarness.interpreted(RunnerSandboxTests.probe, in: root),
                               environment: environment, timeout: 10)
        }
    }

    /// `name=outcome` pairs of the probe's report.
    private static func outcomes(_ result: ProcessResult) -> [String: String] {
        let text = String(decoding: result.stdout, as: UTF8.self)
        var pairs: [String: String] = [:]
        for field in text.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            let parts = field.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { pairs[parts[0]] = parts[1] }
        }
        return pairs
    }

    @Test func aSandboxedProviderWritesOnlyBeneathItsPaths() throws {
        let places = try Places()
        defer { try? FileManager.default.removeItem(at: places.root) }
        let sandbox = try ProviderSandbox(writablePaths: [places.allowed.path, "/dev"])
        let result = RunnerHarness.run([try places.spec()], sandbox: sandbox)[0]
        #expect(result.succeeded, "\(result)")
        #expect(Self.outcomes(result) == [
            "allowed": "written", "denied": "denied", "truncate": "denied", "append": "denied", "mkdir": "denied",
            "remove": "denied", "renameOut": "denied", "stderr": "written", "devNull": "written", "nnp": "1",
        ])
        let existing = try String(contentsOf: places.denied.appendingPathComponent("existing"), encoding: .utf8)
        #expect(existing == "state\n", "the file the provider could not write is intact")
        #expect(!FileManager.default.fileExists(atPath: places.denied.appendingPathComponent("new").path))
    }

    /// A perl provider that truncates without opening for writing, in every way the truncate guard refuses, and
    /// reports each call's errno (or "done") on one line.
    private static let truncateProbe = #"""
        #!/usr/bin/perl
        use strict;
        use Fcntl qw(O_RDONLY O_WRONLY O_CREAT O_TRUNC);
        my ($allowed, $denied) = ($ENV{ALLOWED}, $ENV{DENIED});
        sub report { my ($name, $ok) = @_; print "$name=", ($ok ? "done" : $! + 0), " "; }
        report("truncatePath", truncate("$denied/existing", 0));
        report("readOnlyTrunc", sysopen(my $a, "$denied/existing", O_RDONLY | O_TRUNC));
        report("accessModeThreeTrunc", sysopen(my $b, "$denied/existing", 3 | O_TRUNC));
        report("readOnly", sysopen(my $c, "$denied/existing", O_RDONLY));
        my ($path, $how, $params) = ("$denied/existing", pack("QQQ", O_RDONLY | O_TRUNC, 0, 0), "\0" x 120);
        report("openat2", syscall(437, -100, $path, $how, 24) >= 0);
        report("ioUringSetup", syscall(425, 1, $params) >= 0);
        report("writeTruncAllowed", sysopen(my $d, "$allowed/file", O_WRONLY | O_CREAT | O_TRUNC));
        report("ftruncateAllowed", defined($d) && truncate($d, 0));
        report("truncatePathAllowed", truncate("$allowed/file", 0));
        """#

    /// With `preferSeccomp` the guard is the seccomp filter, as on a kernel whose Landlock ABI is older than 3.
    @Test(arguments: [false, true])
    func aSandboxedProviderCannotTruncateWhatItMayNotWrite(preferSeccomp: Bool) throws {
        let places = try Places()
        defer { try? FileManager.default.removeItem(at: places.root) }
        let sandbox = try ProviderSandbox(writablePaths: [places.allowed.path, "/dev"],
                                          preferringSeccompFor: preferSeccomp ? .truncation : [])
        var spec = try places.spec()
        spec.argv = try RunnerHarness.interpreted(Self.truncateProbe, named: "truncate", in: places.root)
        let result = RunnerHarness.run([spec], sandbox: sandbox)[0]
        #expect(result.succeeded, "\(result)")
        let refused = "\(EACCES)"
        var expected = [
            "truncatePath": refused, "readOnlyTrunc": refused, "accessModeThreeTrunc": refused, "readOnly": "done",
            "writeTruncAllowed": "done", "ftruncateAllowed": "done",
        ]
        switch sandbox.truncateGuard {
        case .seccompFilter:
            // The filter cannot see a path: truncate(2) is refused beneath the writable paths too.
            expected.merge(["openat2": "\(ENOSYS)", "ioUringSetup": "\(ENOSYS)", "truncatePathAllowed": refused]) { $1 }
        case .landlockRight:
            expected.merge(["openat2": refused, "truncatePathAllowed": "done"]) { $1 }
        case .none:
            Issue.record("this kernel has neither seccomp filters nor Landlock ABI 3: nothing refuses truncation")
        }
        var outcomes = Self.outcomes(result)
        if sandbox.truncateGuard == .landlockRight { outcomes["ioUringSetup"] = nil }
        #expect(outcomes == expected)
        let existing = try String(contentsOf: places.denied.appendingPathComponent("existing"), encoding: .utf8)
        #expect(existing == "state\n", "the file the provider could not write is intact")
    }

    @Test func theSandboxsSpawningThreadIsNamedForTopAndPerf() throws {
        let sandbox = try ProviderSandbox(writablePaths: ["/dev"])
        let names = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").compactMap { task in
            try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)
        }
        #expect(names.contains("provider-spawn\n"), "thread names: \(names)")
        withExtendedLifetime(sandbox) {}
    }

    /// A shell provider that reports its policy (through util-linux's chrt) and its slice (the scheduler's debug file).
    private static let schedulingProbe = """
        #!/bin/sh
        printf 'policy=%s ' "$(chrt -p $$ 2>/dev/null | sed -n 's/.*policy: //p' | tr -d ' ')"
        printf 'slice=%s\\n' "$(sed -n 's/^se\\.slice[[:space:]]*:[[:space:]]*//p' /proc/self/sched 2>/dev/null)"
        """

    /// The slice of every thread of this process named `name`, from the scheduler's debug files.
    private static func slices(ofThreadsNamed name: String) throws -> [UInt64] {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").compactMap { task in
            guard (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) == name + "\n",
                  let sched = try? String(contentsOfFile: "/proc/self/task/\(task)/sched", encoding: .utf8),
                  let line = sched.split(separator: "\n").first(where: { $0.hasPrefix("se.slice") }) else {
                return nil
            }
            return line.split(separator: ":").last.flatMap { UInt64($0.trimmingCharacters(in: .whitespaces)) }
        }
    }

    @Test func theSpawningThreadRunsWithTheLatencySliceAndItsProvidersWithTheDefault() throws {
        let root = try RunnerHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let sandbox = try ProviderSandbox(writablePaths: ["/dev"])
        let spec = ProcessSpec(argv: try RunnerHarness.interpreted(Self.schedulingProbe, in: root), timeout: 10)
        let result = RunnerHarness.run([spec], sandbox: sandbox)[0]
        #expect(result.succeeded, "\(result)")
        let report = Self.outcomes(result)
        // Without chrt (util-linux) the policy is not reported; with it, no reset flag was passed on.
        if let policy = report["policy"], !policy.isEmpty { #expect(policy == "SCHED_OTHER") }
        // A kernel before 6.12 has no slices to report, and one without scheduler debug files cannot show them.
        guard let defaultSlice = ThreadScheduling.current()?.sliceNanoseconds, let slice = report["slice"],
              !slice.isEmpty else { return }
        #expect(slice == String(defaultSlice))
        let spawning = try Self.slices(ofThreadsNamed: "provider-spawn")
        #expect(!spawning.isEmpty)
        #expect(spawning.allSatisfy { $0 == ThreadScheduling.latencySliceNanoseconds }, "\(spawning)")
        withExtendedLifetime(sandbox) {}
    }

    @Test func theSandboxGuardsTruncationWithLandlocksRightWhereItsABIHasOneAndWithAFilterElsewhere() throws {
        let seccomp = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
            .split(separator: "\n").first { $0.hasPrefix("Seccomp_filters:") } != nil
        let sandbox = try ProviderSandbox(writablePaths: ["/dev"])
        let filtered = try ProviderSandbox(writablePaths: ["/dev"], preferringSeccompFor: .truncation)
        let withoutRight: TruncateGuard = seccomp ? .seccompFilter : .none
        #expect(sandbox.truncateGuard == (sandbox.abi >= 3 ? .landlockRight : withoutRight))
        #expect(filtered.truncateGuard == (seccomp ? .seccompFilter : sandbox.abi >= 3 ? .landlockRight : .none))
    }

    @Test func withoutATruncateGuardTheWarningSaysWhatProvidersCanDoAndWhyTheFilterFailed() throws {
        let refused = try #require(TruncateGuard.none.problem(filterErrno: EPERM))
        #expect(refused.contains("the state database"))
        #expect(refused.contains("seccomp: \(String(cString: strerror(EPERM)))"))
        #expect(refused.contains("SystemCallFilter= allow seccomp"))
        let unknown = try #require(TruncateGuard.none.problem(filterErrno: ENOSYS))
        #expect(unknown.contains(String(cString: strerror(ENOSYS))))
        #expect(!unknown.contains("SystemCallFilter"))
        #expect(TruncateGuard.landlockRight.problem(filterErrno: 0) == nil)
        #expect(TruncateGuard.seccompFilter.problem(filterErrno: 0) == nil)
        // A guard in force has no failure to tell of.
        let sandbox = try ProviderSandbox(writablePaths: ["/dev"])
        #expect(sandbox.truncateGuard == .none || sandbox.filterErrno == 0)
    }

    @Test func withoutASandboxTheTruncateProbeTruncatesEverything() throws {
        let places = try Places()
        defer { try? FileManager.default.removeItem(at: places.root) }
        var spec = try places.spec()
        spec.argv = try RunnerHarness.interpreted(Self.truncateProbe, named: "truncate", in: places.root)
        let outcomes = Self.outcomes(RunnerHarness.run([spec])[0])
        for name in ["truncatePath", "readOnlyTrunc", "accessModeThreeTrunc", "openat2", "truncatePathAllowed"] {
            #expect(outcomes[name] == "done", "\(name): \(outcomes)")
        }
    }

    @Test func withoutASandboxTheSameProviderWritesEverywhereItsUserMay() throws {
        let places = try Places()
        defer { try? FileManager.default.removeItem(at: places.root) }
        let result = RunnerHarness.run([try places.spec()])[0]
        let outcomes = Self.outcomes(result)
        for name in ["allowed", "denied", "truncate", "append", "mkdir", "remove", "renameOut"] {
            #expect(outcomes[name] == "written", "\(name): \(outcomes)")
        }
    }

    @Test func theRunnersOwnThreadStillWritesWhereItsProvidersCannot() throws {
        let places = try Places()
        defer { try? FileManager.default.removeItem(at: places.root) }
        let sandbox = try ProviderSandbox(writablePaths: [places.allowed.path])
        _ = RunnerHarness.run([try places.spec()], sandbox: sandbox)
        let written = places.denied.appendingPathComponent("by-the-daemon")
        try Data("ok".utf8).write(to: written)
        #expect(try String(contentsOf: written, encoding: .utf8) == "ok")
    }

    @Test func manyRunsInOneSandboxEachGetTheirOwnAnswer() throws {
        let places = try Places()
        defer { try? FileManager.default.removeItem(at: places.root) }
        let sandbox = try ProviderSandbox(writablePaths: [places.allowed.path, "/dev"])
        let echo = try RunnerHarness.interpreted("#!/bin/sh\ncat\n", named: "echo", in: places.root)
        let specs = (0..<20).map { ProcessSpec(argv: echo, stdin: Array("run \($0)".utf8), timeout: 10) }
        let results = RunnerHarness.run(specs, sandbox: sandbox)
        #expect(results.map { String(decoding: $0.stdout, as: UTF8.self) } == (0..<20).map { "run \($0)" })
    }

    @Test func aSandboxedSpawnIsQueuedAndItsPidArrivesBeforeTheCompletion() throws {
        let root = try RunnerHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let sandbox = try ProviderSandbox(writablePaths: ["/dev"])
        let echo = try RunnerHarness.interpreted("#!/bin/sh\necho $$\n", named: "pid", in: root)
        var pidAtStart: Int32 = -1
        var started: [Int32] = []
        var completedAfterStart = false
        let result = RunnerHarness.run([ProcessSpec(argv: echo, timeout: 10)], sandbox: sandbox) { runs in
            pidAtStart = runs[0].pid
            runs[0].whenStarted { started.append($0) }
        }[0]
        completedAfterStart = started.count == 1
        // `start` returned before the child existed: the loop never waited for its exec.
        #expect(pidAtStart == 0)
        #expect(completedAfterStart)
        #expect(started == [result.pid])
        #expect(String(decoding: result.stdout, as: UTF8.self) == "\(result.pid)\n")
    }

    @Test(arguments: [false, true])
    func onlyARunStillGoingAfterItsStreamWatchDelayIsToldAsLasting(sandboxed: Bool) throws {
        let sandbox = sandboxed ? try ProviderSandbox(writablePaths: ["/dev"]) : nil
        // Over long before its 20 s delay: never lasting.
        let quick = ProcessSpec(argv: ["sh", "-c", "echo quick"], timeout: 30, streamWatchDelay: 20)
        // Still sleeping 10 ms in: lasting then, with its pid.
        let slow = ProcessSpec(argv: ["sh", "-c", "sleep 0.3; echo slow"], timeout: 30, streamWatchDelay: 0.01)
        var lasting: [[Int32]] = [[], []]
        var lastingLate: [Int32] = []
        let results = RunnerHarness.run([quick, slow], sandbox: sandbox) { runs in
            for (index, run) in runs.enumerated() {
                run.whenLasting { pid in
                    lasting[index].append(pid)
                    // A handler added once the run has lasted is called at once.
                    run.whenLasting { lastingLate.append($0) }
                }
            }
        }
        #expect(results.map(\.failure) == [nil, nil])
        #expect(lasting == [[], [results[1].pid]])
        #expect(lastingLate == [results[1].pid])
    }

    @Test func aRunWhoseStreamsAreWatchedBeforeItsSpawnIsTakenOverStillEndsAtItsExit() throws {
        // A stream-watch delay of 0: the watch comes due while spawns are still queued on the sandbox's thread. The
        // end of stdout is also the exit watch, so the streams must not be read to their end before the spawn is
        // taken over, and the run must not wait for its timeout. The stall this guards against (stdout closed before
        // the take-over) needed the sandbox's thread held up by the machine, so this is a smoke test;
        // Benchmarks/probes/p1-stalls.sh is the check.
        let sandbox = try ProviderSandbox(writablePaths: ["/dev"])
        let spec = ProcessSpec(argv: ["sh", "-c", "echo out; echo err >&2"], timeout: 20, streamWatchDelay: 0)
        let results = RunnerHarness.run(Array(repeating: spec, count: 40), sandbox: sandbox)
        #expect(results.allSatisfy { $0.failure == nil })
        #expect(results.allSatisfy { String(decoding: $0.stdout, as: UTF8.self) == "out\n" && $0.stderrTail == "err\n" })
        #expect(results.map(\.duration).max() ?? 0 < 10)
    }

    @Test func aQuietSandboxedRunEndsAtItsExitWithNoStreamWatchOrSpawnWakeUp() throws {
        let sandbox = try ProviderSandbox(writablePaths: ["/dev"])
        // No stream watch before 20 s: only the exit poller can end this run quickly.
        let spec = ProcessSpec(argv: ["sh", "-c", "cat; echo bye >&2"], stdin: Array("hello\n".utf8),
                               timeout: 30, streamWatchDelay: 20)
        let result = RunnerHarness.run([spec], sandbox: sandbox)[0]
        #expect(result.failure == nil)
        #expect(String(decoding: result.stdout, as: UTF8.self) == "hello\n")
        #expect(result.stderrTail == "bye\n")
        #expect(result.duration < 10)
    }

    @Test func aSandboxedSpawnThatFailsEndsItsRunAtOnce() throws {
        let root = try RunnerHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let sandbox = try ProviderSandbox(writablePaths: ["/dev"])
        let program = root.appendingPathComponent("not-executable").path
        #expect(FileManager.default.createFile(atPath: program, contents: Data("#!/bin/sh\n".utf8)))
        // A failed spawn has no child for the exit poller to report: the sandbox's eventfd must tell.
        let result = RunnerHarness.run([ProcessSpec(argv: [program], timeout: 30, streamWatchDelay: 20)],
                                       sandbox: sandbox)[0]
        #expect(result.failure?.reason == .spawn)
        #expect(result.duration < 10)
    }

    @Test func aRunCancelledWhileItsSpawnIsQueuedHasItsChildKilledOnceItExists() throws {
        let root = try RunnerHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let sandbox = try ProviderSandbox(writablePaths: ["/dev"])
        let sleeper = try RunnerHarness.interpreted("#!/bin/sh\nsleep 30\n", named: "sleeper", in: root)
        let result = RunnerHarness.run([ProcessSpec(argv: sleeper, timeout: 20)], sandbox: sandbox) { runs in
            #expect(runs[0].pid == 0)
            runs[0].cancel()
        }[0]
        #expect(result.termination == .signaled(SIGKILL), "\(result)")
        #expect(result.duration < 10)
        #expect(RunnerHarness.groupIsGone(result.pid))
    }

    @Test func settlingQueuedSpawnsKillsTheChildrenOfEndedRuns() throws {
        let root = try RunnerHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let sandbox = try ProviderSandbox(writablePaths: ["/dev"])
        let sleeper = try RunnerHarness.interpreted("#!/bin/sh\nsleep 30\n", named: "sleeper", in: root)
        let runner = ProviderRunner(loop: PollEventLoop(), sandbox: sandbox)
        let runs = (0..<3).map { _ in runner.start(ProcessSpec(argv: sleeper, timeout: 20)) { _ in } }
        for run in runs { run.cancel() }
        // No loop turn: the daemon stopping waits for the spawns itself.
        runner.settleQueuedSpawns()
        for run in runs {
            #expect(run.pid > 0)
            #expect(RunnerHarness.groupIsGone(run.pid))
        }
    }

    @Test func pathsThatDoNotExistAreSkipped() throws {
        let sandbox = try ProviderSandbox(writablePaths: ["/nonexistent/widget-scheduler", "/tmp"])
        #expect(sandbox.abi >= 1)
    }
}
