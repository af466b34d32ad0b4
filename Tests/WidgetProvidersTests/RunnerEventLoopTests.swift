import Testing
import WidgetProviders

#if canImport(Glibc)
import Glibc
#endif

@Suite("Poll event loop")
struct RunnerEventLoopTests {
    @Test func timersFireInDeadlineOrderAndCancelledOnesNever() throws {
        let loop = PollEventLoop()
        var fired: [String] = []
        _ = try loop.schedule(after: 0.03) { fired.append("late") }
        let cancelled = try loop.schedule(after: 0.01) { fired.append("cancelled") }
        _ = try loop.schedule(after: 0.0) { fired.append("early") }
        cancelled.cancel()
        loop.run { fired.count == 2 }
        #expect(fired == ["early", "late"])
        #expect(!loop.hasWork)
    }

    @Test func readableWatchFiresUntilCancelled() throws {
        let loop = PollEventLoop()
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        var reads: [UInt8] = []
        var token: RunnerEventToken?
        token = try loop.watchReadable(fd: fds[0]) {
            var byte: UInt8 = 0
            if read(fds[0], &byte, 1) == 1 { reads.append(byte) } else { token?.cancel() }
        }
        var bytes: [UInt8] = [1, 2, 3]
        #expect(write(fds[1], &bytes, 3) == 3)
        close(fds[1])
        loop.run { false }
        #expect(reads == [1, 2, 3])
        #expect(!loop.hasWork)
    }

    @Test func runReturnsWhenNothingIsLeftToWaitFor() {
        let loop = PollEventLoop()
        var checks = 0
        loop.run {
            checks += 1
            return false
        }
        #expect(checks == 1)
    }
}
