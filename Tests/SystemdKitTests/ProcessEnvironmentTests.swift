import Glibc
import Testing

@testable import SystemdKit

/// Tests that read or change the process environment (NOTIFY_SOCKET, WATCHDOG_*, LISTEN_*): they run one at a time.
@Suite(.serialized)
struct ProcessEnvironmentTests {
    @Test func readyCarriesTheStatusText() throws {
        let manager = try FakeNotifySocket()
        defer { manager.close() }
        #expect(try Notifier().ready(status: "3 widgets, next reload weather/w3 in 4 min"))
        #expect(manager.receive() == "READY=1\nSTATUS=3 widgets, next reload weather/w3 in 4 min")
    }

    @Test func statusTextIsKeptOnOneLine() throws {
        let manager = try FakeNotifySocket()
        defer { manager.close() }
        try Notifier().status("first\nsecond")
        #expect(manager.receive() == "STATUS=first second")
    }

    @Test func reloadingCarriesAMonotonicStamp() throws {
        let manager = try FakeNotifySocket()
        defer { manager.close() }
        let before = EventClock.monotonic.currentMicroseconds
        try Notifier().reloading()
        let message = try #require(manager.receive())
        let lines = message.split(separator: "\n").map(String.init)
        #expect(lines.first == "RELOADING=1")
        let stamp = try #require(lines.last?.split(separator: "=").last.flatMap { UInt64($0) })
        #expect(lines.last?.hasPrefix("MONOTONIC_USEC=") == true)
        #expect(stamp >= before)
        #expect(stamp <= EventClock.monotonic.currentMicroseconds)
    }

    @Test func stoppingAndWatchdogSendTheirAssignments() throws {
        let manager = try FakeNotifySocket()
        defer { manager.close() }
        try Notifier().stopping()
        #expect(manager.receive() == "STOPPING=1")
        try Notifier().watchdog()
        #expect(manager.receive() == "WATCHDOG=1")
    }

    @Test func notifyingWithoutAManagerIsANoOp() throws {
        unsetenv("NOTIFY_SOCKET")
        #expect(try Notifier().ready() == false)
    }

    @Test func watchdogIntervalComesFromTheEnvironmentForThisProcessOnly() {
        setenv("WATCHDOG_USEC", "4000000", 1)
        setenv("WATCHDOG_PID", String(getpid()), 1)
        #expect(Notifier.watchdogInterval == 4_000_000)
        setenv("WATCHDOG_PID", String(getpid() + 1), 1)
        #expect(Notifier.watchdogInterval == nil)
        unsetenv("WATCHDOG_USEC")
        unsetenv("WATCHDOG_PID")
        #expect(Notifier.watchdogInterval == nil)
    }

    @Test func eventLoopPingsTheWatchdogByItself() throws {
        let manager = try FakeNotifySocket()
        defer { manager.close() }
        setenv("WATCHDOG_USEC", "100000", 1)
        setenv("WATCHDOG_PID", String(getpid()), 1)
        defer {
            unsetenv("WATCHDOG_USEC")
            unsetenv("WATCHDOG_PID")
        }
        let loop = try EventLoop()
        #expect(try loop.enableWatchdog())
        let end = try loop.addTimer(after: 300_000, accuracy: 1) { loop.exit(code: 0) }
        #expect(try runBounded(loop) == 0)
        #expect(manager.receive(timeoutMilliseconds: 0) == "WATCHDOG=1")
        withExtendedLifetime(end) {}
    }

    @Test func watchdogIsOffWhenTheManagerAskedForNone() throws {
        unsetenv("WATCHDOG_USEC")
        #expect(try EventLoop().enableWatchdog() == false)
    }

    @Test func listenFDsAreNamedAndTheEnvironmentIsConsumed() throws {
        setenv("LISTEN_PID", String(getpid()), 1)
        setenv("LISTEN_FDS", "1", 1)
        setenv("LISTEN_FDNAMES", "control", 1)
        #expect(try ListenFDs.named() == [ListenFDs.Descriptor(fd: 3, name: "control")])
        #expect(getenv("LISTEN_FDS") == nil)
        #expect(try ListenFDs.descriptors() == [])
    }

    @Test func listenFDsForAnotherProcessAreIgnored() throws {
        setenv("LISTEN_PID", String(getpid() + 1), 1)
        setenv("LISTEN_FDS", "2", 1)
        #expect(try ListenFDs.descriptors(unsetEnvironment: true) == [])
        unsetenv("LISTEN_PID")
        unsetenv("LISTEN_FDS")
    }
}
