import Foundation
import Testing
import WidgetProviders

#if canImport(Glibc)
import Glibc
#endif

@Suite("Runner isolation and plumbing")
struct RunnerIsolationTests {
    @Test func childSeesOnlyDescriptorsZeroOneAndTwo() throws {
        let directory = try RunnerHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A descriptor without close-on-exec in this process: only closefrom keeps it from the child.
        let leaky = open("/dev/null", O_RDONLY)
        defer { close(leaky) }
        #expect(leaky > 2)
        let script = """
            #!/usr/bin/env python3
            import os
            def is_open(fd):
                try:
                    os.fstat(fd)
                    return True
                except OSError:
                    return False
            print([fd for fd in range(1024) if is_open(fd)])
            """
        let result = RunnerHarness.run(ProcessSpec(argv: try RunnerHarness.interpreted(script, in: directory)))
        #expect(result.failure == nil)
        #expect(String(decoding: result.stdout, as: UTF8.self) == "[0, 1, 2]\n")
    }

    @Test func childStartsWithNoBlockedAndNoIgnoredSignals() throws {
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGUSR1)
        var previousMask = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &previousMask)
        defer { pthread_sigmask(SIG_SETMASK, &previousMask, nil) }
        let previousHandler = signal(SIGUSR2, SIG_IGN)
        defer { signal(SIGUSR2, previousHandler) }

        let result = RunnerHarness.run(ProcessSpec(argv: ["grep", "-E", "^Sig(Blk|Ign)", "/proc/self/status"]))
        #expect(result.failure == nil)
        let expected = "SigBlk:\t0000000000000000\nSigIgn:\t0000000000000000\n"
        #expect(String(decoding: result.stdout, as: UTF8.self) == expected)
    }

    @Test func childLeadsItsOwnProcessGroup() throws {
        let result = RunnerHarness.run(ProcessSpec(argv: ["sh", "-c", "ps -o pid=,pgid= -p $$"]))
        let fields = String(decoding: result.stdout, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        #expect(fields.map(String.init) == [String(result.pid), String(result.pid)])
        #expect(getpgid(0) != result.pid)
    }

    @Test func environmentIsExactlyTheSpecs() throws {
        let result = RunnerHarness.run(ProcessSpec(argv: ["/usr/bin/env"]))
        let lines = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").map(String.init).sorted()
        #expect(lines == ["LANG=C.UTF-8", "PATH=/usr/local/bin:/usr/bin:/bin", "WIDGET_SCHEDULER_PROTOCOL=1"])
    }

    @Test func workingDirectoryIsTheSpecs() throws {
        let directory = try RunnerHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = RunnerHarness.run(ProcessSpec(argv: ["/bin/pwd", "-P"], workingDirectory: directory.path))
        #expect(result.failure == nil)
        let expected = directory.resolvingSymlinksInPath().path + "\n"
        #expect(String(decoding: result.stdout, as: UTF8.self) == expected)
    }

    @Test func relativeProgramIsFoundFromTheWorkingDirectory() throws {
        let inBin = RunnerHarness.run(ProcessSpec(argv: ["./true"], workingDirectory: "/usr/bin"))
        #expect(inBin.failure == nil)
        let elsewhere = RunnerHarness.run(ProcessSpec(argv: ["./true"], workingDirectory: "/"))
        #expect(elsewhere.failure?.reason == .spawn)
    }

    @Test(arguments: [0, 100, 65536, 300_000])
    func requestReachesStdinWhole(size: Int) throws {
        let request = (0..<size).map { UInt8(truncatingIfNeeded: $0 % 251) }
        let result = RunnerHarness.run(ProcessSpec(argv: ["cat"], stdin: request))
        #expect(result.failure == nil)
        #expect(result.stdout == request)
    }

    @Test func providerThatNeverReadsStdinDoesNotBlockTheRunner() throws {
        let request = [UInt8](repeating: 0x20, count: 300_000)
        let result = RunnerHarness.run(ProcessSpec(argv: ["sh", "-c", "exec 0<&-; echo done"], stdin: request))
        #expect(result.failure == nil)
        #expect(String(decoding: result.stdout, as: UTF8.self) == "done\n")
    }

    @Test func manyRunsProceedAtOnceOnOneLoop() throws {
        let directory = try RunnerHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let count = 12
        // Each run waits until all have started: a runner that served one run at a time would time them all out.
        let script = """
            #!/bin/sh
            touch "$1/started.$$"
            while [ "$(ls "$1" | grep -c started)" -lt \(count) ]; do sleep 0.02; done
            echo "$2"
            """
        let argv = try RunnerHarness.interpreted(script, in: directory)
        let specs = (0..<count).map { ProcessSpec(argv: argv + [directory.path, "run \($0)"], timeout: 10) }
        let results = RunnerHarness.run(specs)
        for (index, result) in results.enumerated() {
            #expect(result.failure == nil)
            #expect(String(decoding: result.stdout, as: UTF8.self) == "run \(index)\n")
        }
    }

    @Test func successReportsTerminationAndDuration() throws {
        let result = RunnerHarness.run(ProcessSpec(argv: ["true"]))
        #expect(result.succeeded)
        #expect(result.termination == .exited(0))
        #expect(result.duration > 0)
        #expect(RunnerHarness.groupIsGone(result.pid))
    }
}
