import Foundation
import Testing
import WidgetProviders

#if canImport(Glibc)
import Glibc
#endif

/// What a run asks of its event loop: a quick provider's output waits in the pipes until its exit, so its run adds
/// no stream watch; a provider that writes more than a pipe holds is read as it writes once the watch delay is over.
@Suite("Runner wake-ups")
struct RunnerWakeupTests {
    /// A `PollEventLoop` that counts the pipes it was asked to watch for reading (the runner's own descriptors, such
    /// as its exit poller, are not pipes).
    final class CountingLoop: RunnerEventLoop {
        let inner = PollEventLoop()
        var readableWatches = 0

        func watchReadable(fd: Int32, _ handler: @escaping () -> Void) throws -> RunnerEventToken {
            var status = stat()
            if fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFIFO { readableWatches += 1 }
            return try inner.watchReadable(fd: fd, handler)
        }

        func watchExit(pidfd: Int32, _ handler: @escaping () -> Void) throws -> RunnerEventToken {
            try inner.watchExit(pidfd: pidfd, handler)
        }

        func schedule(after seconds: Double, _ handler: @escaping () -> Void) throws -> RunnerEventToken {
            try inner.schedule(after: seconds, handler)
        }
    }

    static func run(_ spec: ProcessSpec) -> (ProcessResult, watches: Int) {
        let loop = CountingLoop()
        let runner = ProviderRunner(loop: loop)
        var result: ProcessResult?
        _ = runner.start(spec) { result = $0 }
        loop.inner.run { result != nil }
        return (result!, loop.readableWatches)
    }

    @Test func aRunThatEndsBeforeTheWatchDelayWatchesNoStream() {
        // A delay far beyond the run, so the test does not depend on the machine's speed.
        let spec = ProcessSpec(argv: ["sh", "-c", "cat; echo done >&2"], stdin: Array("answer\n".utf8),
                               streamWatchDelay: 20)
        let (result, watches) = Self.run(spec)
        #expect(result.failure == nil)
        #expect(String(decoding: result.stdout, as: UTF8.self) == "answer\n")
        #expect(result.stderrTail == "done\n")
        #expect(watches == 0)
    }

    @Test func outputLargerThanThePipeIsReadAsItIsWrittenOnceTheDelayIsOver() {
        let size = 1 << 20
        let spec = ProcessSpec(argv: ["head", "-c", "\(size)", "/dev/zero"], stdoutLimit: 2 << 20,
                               streamWatchDelay: 0.05)
        let (result, watches) = Self.run(spec)
        #expect(result.failure == nil)
        #expect(result.stdout.count == size)
        // The child blocked on the full pipe until the watch began: stdout and stderr were watched.
        #expect(watches == 2)
        #expect(result.duration >= 0.05)
    }

    @Test func aChildWhoseGrandchildHoldsStdoutEndsAfterTheDrain() {
        let spec = ProcessSpec(argv: ["sh", "-c", "sleep 5 & echo parent"], drainAfterExit: 0.2,
                               streamWatchDelay: 20)
        let (result, _) = Self.run(spec)
        #expect(result.failure == nil)
        #expect(String(decoding: result.stdout, as: UTF8.self) == "parent\n")
        #expect(result.duration < 3)
    }
}
