import Foundation
import Testing
@testable import WidgetProviders

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
        var timersScheduled = 0
        /// Timers of at most a second: the stream watch's, which wake the loop, and not a run's timeout (30 s by
        /// default), which a run armed once it lasted and cancelled at its end.
        var shortTimersScheduled = 0

        func watchReadable(fd: Int32, _ handler: @escaping () -> Void) throws -> RunnerEventToken {
            var status = stat()
            if fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFIFO { readableWatches += 1 }
            return try inner.watchReadable(fd: fd, handler)
        }

        func watchExit(pidfd: Int32, _ handler: @escaping () -> Void) throws -> RunnerEventToken {
            try inner.watchExit(pidfd: pidfd, handler)
        }

        func schedule(after seconds: Double, _ handler: @escaping () -> Void) throws -> RunnerEventToken {
            timersScheduled += 1
            if seconds <= 1 { shortTimersScheduled += 1 }
            return try inner.schedule(after: seconds, handler)
        }
    }

    /// Runs `specs` at once on one runner; their results in order, and the loop.
    static func runTogether(_ specs: [ProcessSpec]) -> ([ProcessResult], CountingLoop) {
        let loop = CountingLoop()
        let runner = ProviderRunner(loop: loop)
        var results = [ProcessResult?](repeating: nil, count: specs.count)
        for (index, spec) in specs.enumerated() {
            _ = runner.start(spec) { results[index] = $0 }
        }
        loop.inner.run { results.allSatisfy { $0 != nil } }
        return (results.map { $0! }, loop)
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

    @Test func runsInFlightTogetherShareOneStreamWatchTimer() {
        let spec = ProcessSpec(argv: ["cat"], stdin: Array("answer\n".utf8), streamWatchDelay: 20)
        let (results, loop) = Self.runTogether(Array(repeating: spec, count: 8))
        #expect(results.allSatisfy { $0.failure == nil && $0.stdout == Array("answer\n".utf8) })
        // The first run armed the runner's timer; the later runs, due later, left it alone.
        #expect(loop.timersScheduled == 1)
        // Idle again, the runner keeps no timer.
        #expect(!loop.inner.hasWork)
    }

    @Test func quickRunsOneAfterAnotherWakeTheLoopAboutOncePerWatchDelay() {
        let loop = CountingLoop()
        let runner = ProviderRunner(loop: loop)
        let spec = ProcessSpec(argv: ["true"], streamWatchDelay: 0.02)
        let runs = 300
        var finished = 0
        var failures = 0
        func next() {
            _ = runner.start(spec) { result in
                finished += 1
                if result.failure != nil { failures += 1 }
                if finished < runs { next() }
            }
        }
        let start = Date()
        next()
        loop.inner.run { finished == runs }
        let seconds = Date().timeIntervalSince(start)
        #expect(failures == 0)
        // The timer waits for the oldest run still going, not for every ended run's moment, where a timer per run,
        // or per ended run's moment, would be ~300. One run at a time is live here: a timer that fires re-arms for
        // 20 ms after the start of the run going then, which is almost at once when that run started nearly 20 ms
        // before (it was slow to end, on a loaded machine); the run after that one starts only after the first
        // timer, so no 20 ms holds more than two timers. About one per 20 ms when the runs are quick, never more
        // than two (plus the first).
        #expect(seconds > 0.04)
        #expect(loop.shortTimersScheduled <= 2 * Int(seconds / 0.02) + 3,
                "\(loop.shortTimersScheduled) stream watch timers for \(runs) runs in \(seconds) s")
    }

    @Test func aRunDueSoonerThanTheArmedTimerIsWatchedOnTime() {
        let size = 1 << 20
        let patient = ProcessSpec(argv: ["sleep", "0.5"], streamWatchDelay: 20)
        let loud = ProcessSpec(argv: ["head", "-c", "\(size)", "/dev/zero"], stdoutLimit: 2 << 20,
                               streamWatchDelay: 0.05)
        let (results, loop) = Self.runTogether([patient, loud])
        #expect(results.allSatisfy { $0.failure == nil })
        #expect(results[1].stdout.count == size)
        // Without its own earlier timer, the loud run would wait for the patient run's 20 s.
        #expect(results[1].duration < 5)
        #expect(loop.timersScheduled >= 2)
    }

    @Test func aChildWhoseGrandchildHoldsStdoutEndsAfterTheWatchDelayAndTheDrain() {
        // The output never ends while `sleep` holds it: the child's exit is seen through a pidfd once the stream
        // watch is due, then the drain runs out.
        let spec = ProcessSpec(argv: ["sh", "-c", "sleep 5 & echo parent"], drainAfterExit: 0.2,
                               streamWatchDelay: 0.1)
        let (result, _) = Self.run(spec)
        #expect(result.failure == nil)
        #expect(String(decoding: result.stdout, as: UTF8.self) == "parent\n")
        #expect(result.duration >= 0.3)
        #expect(result.duration < 3)
    }

    /// Runs `spec`, and `probe` with its process `after` seconds into the run; the result.
    static func run(_ spec: ProcessSpec, probing after: Double, _ probe: @escaping (RunningProcess) -> Void)
        -> ProcessResult {
        let loop = CountingLoop()
        let runner = ProviderRunner(loop: loop)
        var result: ProcessResult?
        let process = runner.start(spec) { result = $0 }
        let timer = try? loop.inner.schedule(after: after) { probe(process) }
        loop.inner.run { result != nil }
        _ = timer
        return result!
    }

    @Test func aChildThatClosesItsStdoutAndGoesOnIsWaitedFor() {
        // The end of its output is not its exit: the run waits for the exit, through a pidfd from then on, long
        // before the stream watch is due.
        let spec = ProcessSpec(argv: ["sh", "-c", "echo answer; exec >&-; sleep 0.4; echo done >&2; exit 3"],
                               streamWatchDelay: 20)
        var watchedByPidfd: Bool?
        let result = Self.run(spec, probing: 0.2) { watchedByPidfd = $0.watchesExitThroughPidfd }
        #expect(String(decoding: result.stdout, as: UTF8.self) == "answer\n")
        #expect(result.stderrTail.contains("done"))
        #expect(result.termination == .exited(3))
        #expect(result.duration >= 0.4)
        #expect(result.duration < 5)
        #expect(watchedByPidfd == true)
    }

    struct ExitWatchCase: CustomTestStringConvertible, Sendable {
        var name: String
        var script: String
        var streamWatchDelay: Double
        /// When the run is looked at, in seconds: the child still sleeps then.
        var probeAfter: Double
        var watchedByPidfd: Bool
        var testDescription: String { name }
    }

    static let exitWatchCases: [ExitWatchCase] = [
        ExitWatchCase(name: "a quick run's exit is watched through its output, without a pidfd",
                      script: "sleep 0.3; echo late", streamWatchDelay: 20, probeAfter: 0.15, watchedByPidfd: false),
        ExitWatchCase(name: "a lasting run's exit is watched through a pidfd", script: "sleep 0.4; echo late",
                      streamWatchDelay: 0.05, probeAfter: 0.25, watchedByPidfd: true),
    ]

    @Test(arguments: exitWatchCases)
    func aRunsExitIsWatchedThroughAPidfdOnlyOnceItLasts(_ example: ExitWatchCase) {
        let spec = ProcessSpec(argv: ["sh", "-c", example.script], streamWatchDelay: example.streamWatchDelay)
        var watchedByPidfd: Bool?
        let result = Self.run(spec, probing: example.probeAfter) { watchedByPidfd = $0.watchesExitThroughPidfd }
        #expect(result.failure == nil)
        #expect(String(decoding: result.stdout, as: UTF8.self) == "late\n")
        #expect(watchedByPidfd == example.watchedByPidfd)
    }
}
