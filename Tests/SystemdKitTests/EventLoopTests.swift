import Glibc
import Testing

@testable import SystemdKit

/// Runs `loop` until a handler calls `exit(code:)`, or fails the run with code -1 after `limit` microseconds so a
/// broken source cannot hang the test suite.
func runBounded(_ loop: EventLoop, limit: UInt64 = 5_000_000) throws -> Int32 {
    let guardTimer = try loop.addTimer(after: limit, accuracy: 1) { loop.exit(code: -1) }
    defer { guardTimer.cancel() }
    return try loop.run()
}

@Suite("EventLoop")
struct EventLoopTests {
    @Test func timersFireInDeadlineOrderNotRegistrationOrder() throws {
        let loop = try EventLoop()
        // Each firing with its deadline and the loop's time when it fired.
        var fired: [(name: String, deadline: UInt64, at: UInt64)] = []
        let start = loop.now(.monotonic)
        func timer(_ name: String, _ offset: UInt64) throws -> EventSource {
            try loop.addTimer(at: start + offset, accuracy: 1) {
                fired.append((name, start + offset, loop.now(.monotonic)))
                if fired.count == 3 { loop.exit(code: 0) }
            }
        }
        let timers = [try timer("late", 30_000), try timer("early", 10_000), try timer("middle", 20_000)]
        #expect(try runBounded(loop) == 0)
        #expect(Set(fired.map(\.name)) == ["early", "middle", "late"])
        for firing in fired { #expect(firing.at >= firing.deadline, "\(firing.name) fired before its deadline") }
        // Two timers both due at one wake-up (the test descheduled past the next deadline on a loaded machine) fire
        // in an order sd-event leaves open: the order is judged when each woke the loop alone.
        if zip(fired, fired.dropFirst()).allSatisfy({ $0.at < $1.deadline }) {
            #expect(fired.map(\.name) == ["early", "middle", "late"])
        }
        withExtendedLifetime(timers) {}
    }

    @Test func oneShotTimerIsOffAfterFiringAndCanBeRearmed() throws {
        let loop = try EventLoop()
        var firings = 0
        var enablementSeenAfterFiring: [EventSource.Enablement] = []
        var timer: EventSource?
        timer = try loop.addTimer(at: loop.now() + 1_000, accuracy: 1) {
            firings += 1
            if firings == 3 {
                loop.exit(code: 0)
            }
        }
        let source = try #require(timer)
        let watcher = try loop.addPost {
            guard source.enablement == .off else { return }
            enablementSeenAfterFiring.append(.off)
            if firings < 3 {
                try? source.schedule(at: loop.now() + 1_000)
            }
        }
        #expect(try runBounded(loop) == 0)
        #expect(firings == 3)
        #expect(enablementSeenAfterFiring.count >= 2)
        withExtendedLifetime(watcher) {}
    }

    @Test func iterationHooksRunAfterEveryDispatchUntilCancelled() throws {
        let loop = try EventLoop()
        var log: [String] = []
        // Each timer arms the next when it fires: timers merely a millisecond apart would all be due at once after
        // the test was descheduled for longer (a loaded machine), and then sd-event dispatches them in any order.
        var timers: [EventSource] = []
        for index in 1...3 {
            timers.append(try loop.addTimer(at: index == 1 ? loop.now() + 1_000 : .max, accuracy: 1) {
                log.append("timer \(index)")
                if index == 3 {
                    loop.exit(code: 7)
                } else {
                    try? timers[index].schedule(at: loop.now() + 1_000)
                }
            })
        }
        var hooks: [IterationHook] = []
        hooks.append(loop.addIterationHook { log.append("hook") })
        hooks.append(loop.addIterationHook {
            log.append("second")
            // A hook may cancel itself; it runs no more.
            if log.contains("timer 2") { hooks[1].cancel() }
        })
        // Each timer is one iteration's dispatch.
        #expect(try runBounded(loop) == 7)
        #expect(log.filter { $0 == "timer 1" || $0 == "timer 2" || $0 == "timer 3" }
                == ["timer 1", "timer 2", "timer 3"])
        for dispatch in log.indices where log[dispatch].hasPrefix("timer") {
            #expect(log.dropFirst(dispatch + 1).first == "hook", "\(log)")
        }
        let lastSecond = try #require(log.lastIndex(of: "second"))
        let thirdTimer = try #require(log.firstIndex(of: "timer 3"))
        #expect(lastSecond < thirdTimer, "\(log)")
        withExtendedLifetime((timers, hooks)) {}
    }

    @Test func rearmingMovesTheDeadline() throws {
        let loop = try EventLoop()
        let start = loop.now()
        var firedAt: UInt64 = 0
        let timer = try loop.addTimer(at: start + 3_000_000, accuracy: 1) {
            firedAt = loop.now()
            loop.exit(code: 0)
        }
        try timer.schedule(at: start + 5_000)
        #expect(try timer.time() == start + 5_000)
        #expect(try runBounded(loop) == 0)
        #expect(firedAt >= start + 5_000)
        #expect(firedAt < start + 3_000_000)
    }

    @Test func handlerCanCancelItsOwnSourceAndAnother() throws {
        let loop = try EventLoop()
        let start = loop.now()
        var fired: [String] = []
        var victim: EventSource?
        var canceller: EventSource?
        victim = try loop.addTimer(at: start + 2_000, accuracy: 1) { fired.append("victim") }
        canceller = try loop.addTimer(at: start + 1_000, accuracy: 1) {
            fired.append("canceller")
            canceller?.cancel()
            canceller = nil
            victim?.cancel()
        }
        let end = try loop.addTimer(at: start + 20_000, accuracy: 1) { loop.exit(code: 0) }
        #expect(try runBounded(loop) == 0)
        #expect(fired == ["canceller"])
        #expect(victim?.isActive == false)
        #expect(canceller == nil)
        withExtendedLifetime(end) {}
    }

    @Test func droppingTheSourceCancelsIt() throws {
        let loop = try EventLoop()
        var fired = false
        var timer: EventSource? = try loop.addTimer(at: loop.now() + 1_000, accuracy: 1) { fired = true }
        #expect(timer?.isActive == true)
        timer = nil
        let end = try loop.addTimer(after: 10_000, accuracy: 1) { loop.exit(code: 0) }
        #expect(try runBounded(loop) == 0)
        #expect(!fired)
        withExtendedLifetime(end) {}
    }

    @Test func ioSourceReportsReadabilityOfAPipe() throws {
        let loop = try EventLoop()
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        var received: [UInt8] = []
        var reported: IOEvents = []
        let reader = try loop.addIO(fd: fds[0], events: .readable) { events in
            reported = events
            var buffer = [UInt8](repeating: 0, count: 16)
            let count = read(fds[0], &buffer, buffer.count)
            received = Array(buffer.prefix(max(count, 0)))
            loop.exit(code: 0)
        }
        let writer = try loop.addTimer(after: 1_000, accuracy: 1) {
            _ = write(fds[1], "hi", 2)
        }
        #expect(try runBounded(loop) == 0)
        #expect(reported.contains(.readable))
        #expect(received == Array("hi".utf8))
        withExtendedLifetime((reader, writer)) {}
    }

    @Test(arguments: [("exit 7", Int32(7), nil), ("kill -KILL $$", nil, SIGKILL)] as [(String, Int32?, Int32?)])
    func childSourceDeliversHowTheChildEnded(script: String, exitStatus: Int32?, signal: Int32?) throws {
        try EventLoop.blockSignals([SIGCHLD])
        let loop = try EventLoop()
        let pid = try spawnShell(script)
        let pidfd = csystemdPidfdOpen(pid)
        #expect(pidfd >= 0)
        defer { close(pidfd) }
        var outcome: ChildExit?
        let child = try loop.addChild(pidfd: pidfd, pid: pid) { exit in
            outcome = exit
            loop.exit(code: 0)
        }
        #expect(try runBounded(loop) == 0)
        let ended = try #require(outcome)
        #expect(ended.pid == pid)
        #expect(ended.exitStatus == exitStatus)
        #expect(ended.terminatingSignal == signal)
        // sd-event reaps the child after the handler: nothing is left to wait for.
        var status: Int32 = 0
        #expect(waitpid(pid, &status, WNOHANG) == -1)
        withExtendedLifetime(child) {}
    }

    @Test func signalSourceReceivesABlockedSignal() throws {
        try EventLoop.blockSignals([SIGUSR1])
        let loop = try EventLoop()
        var received: SignalInfo?
        let source = try loop.addSignal(SIGUSR1) { info in
            received = info
            loop.exit(code: 0)
        }
        // raise() directs the signal at this thread, whose signalfd the loop reads; other test threads never see it.
        #expect(raise(SIGUSR1) == 0)
        #expect(try runBounded(loop) == 0)
        #expect(received?.signal == SIGUSR1)
        #expect(received?.senderPID == getpid())
        withExtendedLifetime(source) {}
    }

    @Test func signalSourceRefusesAnUnblockedSignal() throws {
        // Test-runner threads may start with every signal blocked; unblock one for the duration of the check.
        var unblock = sigset_t()
        var previous = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGUSR2)
        #expect(pthread_sigmask(SIG_UNBLOCK, &unblock, &previous) == 0)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        let loop = try EventLoop()
        #expect(throws: SystemdError.self) {
            _ = try loop.addSignal(SIGUSR2) { _ in }
        }
    }

    @Test func wallClockWatcherArmsWithoutFiring() throws {
        let loop = try EventLoop()
        var jumps = 0
        let watcher = try loop.addWallClockChangeWatcher { jumps += 1 }
        #expect(watcher.isActive)
        #expect(watcher.ownedDescriptor >= 0)
        let end = try loop.addTimer(after: 20_000, accuracy: 1) { loop.exit(code: 0) }
        #expect(try runBounded(loop) == 0)
        #expect(jumps == 0)
        let descriptor = watcher.ownedDescriptor
        watcher.cancel()
        #expect(fcntl(descriptor, F_GETFD) == -1)
        withExtendedLifetime(end) {}
    }

    @Test func deferSourceRunsOnceOnTheNextIteration() throws {
        let loop = try EventLoop()
        var runs = 0
        let deferred = try loop.addDefer { runs += 1 }
        let end = try loop.addTimer(after: 10_000, accuracy: 1) { loop.exit(code: 0) }
        #expect(try runBounded(loop) == 0)
        #expect(runs == 1)
        withExtendedLifetime((deferred, end)) {}
    }

    @Test func anIdlePrioritySourceWaitsForEveryPendingNormalOne() throws {
        let loop = try EventLoop()
        var order: [String] = []
        let idle = try loop.addDefer { order.append("idle") }
        try idle.setPriority(EventSource.idlePriority)
        let first = try loop.addDefer { order.append("normal 1") }
        let second = try loop.addDefer { order.append("normal 2") }
        for _ in 0..<3 { _ = try loop.runOnce(timeout: 0) }
        #expect(order == ["normal 1", "normal 2", "idle"])
        // Off after its one dispatch; enabled again, it runs again.
        try idle.setEnabled(.oneShot)
        _ = try loop.runOnce(timeout: 0)
        #expect(order.last == "idle" && order.count == 4)
        withExtendedLifetime((idle, first, second)) {}
    }

    @Test func nowFollowsTheKernelClock() throws {
        let loop = try EventLoop()
        for clock in EventClock.allCases {
            let before = clock.currentMicroseconds
            let now = loop.now(clock)
            #expect(now + 1_000_000 > before)
            #expect(now <= clock.currentMicroseconds)
        }
    }

    @Test func runReturnsTheExitCode() throws {
        let loop = try EventLoop()
        let timer = try loop.addTimer(after: 1_000, accuracy: 1) { loop.exit(code: 42) }
        #expect(try runBounded(loop) == 42)
        withExtendedLifetime(timer) {}
    }
}
