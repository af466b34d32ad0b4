import Foundation
import Glibc
import SystemdKit
import Testing
import WidgetProtocol
@testable import WidgetSchedulerRuntime
import WidgetSchedulerTestKit

@Suite struct ControlServerTests {
    private let loop: EventLoop
    private let handler = ControlTestHandler()
    private let directory = controlSocketDirectory()
    private var path: String { directory + "/control.socket" }

    init() throws {
        loop = try EventLoop()
    }

    private func server(limits: ControlLimits = ControlLimits()) throws -> ControlServer {
        let server = ControlServer(loop: loop, handler: handler, configuration: .init(version: "test", limits: limits))
        try server.listen(path: path)
        return server
    }

    private func turn(until condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(10)
        while !condition() && Date() < deadline {
            _ = try? loop.runOnce(timeout: 10_000)
        }
    }

    /// A daemon killed while a provider child was between its clone and its exec leaves that child holding the
    /// listening socket: connections to it are accepted by nobody. The next daemon takes the path over; a live
    /// server's path it refuses.
    @Test func aSocketHeldOnlyByADeadListenersChildIsTakenOverAndALiveOneIsNot() throws {
        let script = """
            import os, socket, sys, time
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.bind(sys.argv[1])
            s.listen(8)
            child = os.fork()
            if child == 0:
                # Only the listening socket: any other inherited descriptor would keep the test waiting on it.
                os.closerange(0, s.fileno())
                os.closerange(s.fileno() + 1, 1024)
                time.sleep(60)
                os._exit(0)
            print(child, flush=True)
            os._exit(0)
            """
        let python = try ChildProcess.capture(["/usr/bin/python3", "-c", script, path],
                                              environment: ProcessInfo.processInfo.environment)
        #expect(python.status == 0)
        let printed = String(decoding: python.output, as: UTF8.self)
        let holder = try #require(Int32(printed.trimmingCharacters(in: .whitespacesAndNewlines)), "\(printed)")
        defer { kill(holder, SIGKILL) }
        #expect(ControlServer.someoneListens(at: path) == false, "the process that listened is gone")
        let server = try server()
        defer { server.stop() }
        #expect(ControlServer.someoneListens(at: path), "this process listens now")
        let second = ControlServer(loop: loop, handler: handler, configuration: .init(version: "test"))
        #expect(throws: SystemCallError.self) { try second.listen(path: path) }
        let client = try #require(ControlSocketClient(path: path))
        client.call(#"{"method":"io.widgetscheduler.Scheduler.Status"}"#, loop: loop)
        #expect(client.nextReply(loop: loop)?.parameters?["pid"] == .integer(Int64(getpid())), "the new server serves")
    }

    @Test func callTravelsThroughARealSocketWithKernelCredentials() throws {
        let server = try server()
        defer { server.stop() }
        let client = try #require(ControlSocketClient(path: path))
        client.call(#"{"method":"io.widgetscheduler.Scheduler.Status"}"#, loop: loop)
        let reply = try #require(client.nextReply(loop: loop))
        #expect(reply.parameters?["pid"] == .integer(Int64(getpid())))
        #expect(reply.parameters?["uid"] == .integer(Int64(geteuid())))
    }

    /// A reply larger than a socket's default send buffer (~208 KiB) is queued whole at once, so it does not wait for
    /// the client to drain it piece by piece: the client, reading nothing, finds all of it in its socket.
    @Test func aLargeReplyIsQueuedWholeForAClientThatHasNotReadYet() throws {
        let server = try server()
        defer { server.stop() }
        let client = try #require(ControlSocketClient(path: path))
        let ids = (1...12_000).map { "\"deferred-\($0)\"" }.joined(separator: ",")
        client.call(#"{"method":"io.widgetscheduler.Scheduler.Reload","parameters":{"widgets":["#
            + ids + "]}}", loop: loop)
        func queued() -> Int {
            var count: Int32 = 0
            return ioctl(client.fd, UInt(FIONREAD), &count) == 0 ? Int(count) : 0
        }
        // ~95 bytes a decision, 1.1 MB in all: far past what a default buffer lets through before the client reads.
        turn { queued() >= 1_000_000 }
        #expect(queued() >= 1_000_000)
        let reply = try #require(client.nextReply(loop: loop))
        let parameters = try #require(reply.parameters)
        #expect(try VarlinkCoding.decode(ReloadMethod.Reply.self, from: parameters).decisions.count == 12_000)
    }

    @Test func socketIsWorldWritableBecauseEachCallIsAuthorized() throws {
        let server = try server()
        defer { server.stop() }
        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o666)
    }

    @Test func staleSocketIsReplacedButALiveOneIsNot() throws {
        let first = try server()
        #expect(throws: SystemCallError.self) { try self.server() }
        first.stop()
        // Leave a socket file nobody listens on, as a killed daemon does.
        let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        _ = UnixSocketAddress(path: path)?.bind(stale)
        close(stale)
        let second = try server()
        defer { second.stop() }
        let client = try #require(ControlSocketClient(path: path))
        client.call(#"{"method":"org.varlink.service.GetInfo"}"#, loop: loop)
        #expect(client.nextReply(loop: loop)?.parameters?["product"] == .string("widget-scheduler"))
    }

    @Test func adoptedSocketIsServedLikeAnOwnOne() throws {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        _ = UnixSocketAddress(path: path)?.bind(fd)
        #expect(Glibc.listen(fd, 16) == 0)
        let server = ControlServer(loop: loop, handler: handler, configuration: .init(version: "test"))
        try server.adopt(listeningSocket: fd)
        let client = try #require(ControlSocketClient(path: path))
        client.call(#"{"method":"io.widgetscheduler.Scheduler.Status"}"#, loop: loop)
        #expect(client.nextReply(loop: loop)?.parameters?["pid"] == .integer(Int64(getpid())))
        server.stop()
        // The path belongs to the socket unit: stop closes the descriptor but leaves the file.
        #expect(access(path, F_OK) == 0)
    }

    @Test func watchStreamsEventsAndEndsCleanlyWhenTheServerStops() throws {
        let server = try server()
        let client = try #require(ControlSocketClient(path: path))
        client.call(#"{"method":"io.widgetscheduler.Scheduler.Watch","parameters":{},"more":true}"#, loop: loop)
        turn { !handler.watchers.isEmpty }
        for widget in ["w1", "w2", "w3"] {
            handler.broadcast(widget)
        }
        var contents: [JSONValue?] = []
        for _ in 0..<3 {
            let reply = try #require(client.nextReply(loop: loop))
            #expect(reply.isContinued)
            contents.append(reply.parameters?["content"])
        }
        #expect(contents == [.string("w1"), .string("w2"), .string("w3")])
        server.stop()
        let last = try #require(client.nextReply(loop: loop))
        #expect(last == VarlinkReply(error: .daemonStopping()), "a declared error, not an empty reply")
        #expect(client.waitForEnd(loop: loop))
        #expect(handler.closedWatchers == 0)
    }

    @Test func clientLeavingAStreamClosesTheCall() throws {
        let server = try server()
        defer { server.stop() }
        var client = ControlSocketClient(path: path)
        client?.call(#"{"method":"io.widgetscheduler.Scheduler.Watch","more":true}"#, loop: loop)
        turn { !handler.watchers.isEmpty }
        client = nil
        turn { handler.closedWatchers == 1 }
        #expect(handler.closedWatchers == 1)
        #expect(server.connectionCount == 0)
    }

    @Test func thousandIdleConnectionsDoNotStopAWellBehavedClient() throws {
        let server = try server()
        defer { server.stop() }
        var idle: [ControlSocketClient] = []
        for _ in 0..<1000 {
            idle.append(try #require(ControlSocketClient(path: path)))
            if idle.count % 100 == 0 { _ = try? loop.runOnce(timeout: 0) }
        }
        turn { server.connectionCount == 1000 }
        #expect(server.connectionCount == 1000)
        let client = try #require(ControlSocketClient(path: path))
        for round in 0..<20 {
            client.call(
                #"{"method":"io.widgetscheduler.Scheduler.Reload","parameters":{"widgets":["w\#(round)"]}}"#,
                loop: loop)
            let reply = try #require(client.nextReply(loop: loop))
            #expect(reply.error == nil)
        }
        #expect(server.connectionCount == 1001)
    }

    @Test func connectionOverTheLimitIsToldWhyAndClosed() throws {
        let server = try server(limits: ControlLimits(maximumConnections: 2, adminReservedConnections: 0))
        defer { server.stop() }
        let first = try #require(ControlSocketClient(path: path))
        let second = try #require(ControlSocketClient(path: path))
        turn { server.connectionCount == 2 }
        let third = try #require(ControlSocketClient(path: path))
        let refusal = try #require(third.nextReply(loop: loop))
        #expect(refusal.controlError == .tooManyConnections(limit: 2))
        #expect(third.waitForEnd(loop: loop))
        first.call(#"{"method":"io.widgetscheduler.Scheduler.Status"}"#, loop: loop)
        #expect(first.nextReply(loop: loop)?.error == nil)
        _ = second
    }

    @Test func twoMebibyteMessageIsRefusedAndOthersAreStillServed() throws {
        let server = try server()
        defer { server.stop() }
        let bystander = try #require(ControlSocketClient(path: path))
        let hostile = try #require(ControlSocketClient(path: path))
        hostile.send([UInt8](repeating: 0x20, count: 2 << 20) + [0], loop: loop)
        let refusal = hostile.nextReply(loop: loop)
        #expect(refusal?.error == ControlError.Name.invalidMessage)
        #expect(hostile.waitForEnd(loop: loop))
        bystander.call(#"{"method":"io.widgetscheduler.Scheduler.Status"}"#, loop: loop)
        #expect(bystander.nextReply(loop: loop)?.error == nil)
    }

    @Test func garbageFromManyClientsLeavesTheServerServing() throws {
        let server = try server()
        defer { server.stop() }
        var generator = SystemRandomNumberGenerator()
        for index in 0..<200 {
            guard let client = ControlSocketClient(path: path) else { continue }
            let length = Int.random(in: 1...512, using: &generator)
            var bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if index % 2 == 0 { bytes += Array(#"{"method":"io.widgetscheduler.Scheduler.List","parameters":{"#.utf8) }
            client.send(bytes + [0], loop: loop)
            _ = client.nextReply(loop: loop, timeout: 2)
        }
        let client = try #require(ControlSocketClient(path: path))
        client.call(#"{"method":"io.widgetscheduler.Scheduler.Status"}"#, loop: loop)
        #expect(client.nextReply(loop: loop)?.parameters?["pid"] == .integer(Int64(getpid())))
    }

    // MARK: - Limits

    @Test func anIdleConnectionIsClosedAndToldWhyButOneWithAnOpenStreamIsNot() throws {
        let server = try server(limits: ControlLimits(messageTimeout: 5, idleTimeout: 0.3))
        defer { server.stop() }
        let idle = try #require(ControlSocketClient(path: path))
        let watcher = try #require(ControlSocketClient(path: path))
        watcher.call(#"{"method":"io.widgetscheduler.Scheduler.Watch","more":true}"#, loop: loop)
        let opened = Date()
        let reply = try #require(idle.nextReply(loop: loop))
        #expect(reply.controlError == .connectionTimedOut(.idle, seconds: 0.3))
        #expect(Date().timeIntervalSince(opened) >= 0.3)
        #expect(idle.waitForEnd(loop: loop))
        let busy = try #require(ControlSocketClient(path: path))
        // A client that keeps calling is not idle; one with an open stream never is.
        for _ in 0..<4 {
            busy.call(#"{"method":"io.widgetscheduler.Scheduler.Status"}"#, loop: loop)
            #expect(busy.nextReply(loop: loop)?.error == nil)
            turn(for: 0.15)
        }
        #expect(handler.watchers.count == 1 && handler.watchers[0].isOpen)
        #expect(handler.closedWatchers == 0)
        #expect(server.connectionCount == 2)
    }

    @Test func aMessageLeftIncompleteIsClosedAfterTheMessageTimeoutThoughBytesKeepComing() throws {
        let server = try server(limits: ControlLimits(messageTimeout: 0.5, idleTimeout: 60))
        defer { server.stop() }
        let slow = try #require(ControlSocketClient(path: path))
        let start = Date()
        slow.send(Array(#"{"method":"io.widgetscheduler.Sch"#.utf8), loop: loop)
        // One byte now and then: traffic, but the message never ends.
        var reply: VarlinkReply?
        while reply == nil && Date().timeIntervalSince(start) < 10 {
            slow.send(Array(" ".utf8), loop: loop)
            reply = slow.nextReply(loop: loop, timeout: 0.1)
        }
        #expect(reply?.controlError == .connectionTimedOut(.incompleteMessage, seconds: 0.5))
        #expect(Date().timeIntervalSince(start) >= 0.5)
        #expect(slow.waitForEnd(loop: loop))
        #expect(server.connectionCount == 0)
    }

    @Test func aClientThatKeepsSendingWholeMessagesIsNotTimedOut() throws {
        let server = try server(limits: ControlLimits(messageTimeout: 0.3, idleTimeout: 60))
        defer { server.stop() }
        let client = try #require(ControlSocketClient(path: path))
        let status = Array(#"{"method":"io.widgetscheduler.Scheduler.Status"}"#.utf8) + [0]
        let start = Date()
        var replies = 0
        // Every write ends inside a message, but each message ends within the timeout.
        client.send(Array(status[..<10]), loop: loop)
        while Date().timeIntervalSince(start) < 1 {
            client.send(Array(status[10...]) + Array(status[..<10]), loop: loop)
            if client.nextReply(loop: loop, timeout: 2)?.error == nil { replies += 1 }
            turn(for: 0.1)
        }
        #expect(replies >= 3)
        #expect(server.connectionCount == 1)
    }

    @Test func pastTheBudgetTheWatcherThatDoesNotReadIsDroppedAndOthersAreServed() throws {
        let server = try server(limits: ControlLimits(bufferBudget: 1 << 20, watchBacklogLimit: 1 << 20))
        defer { server.stop() }
        let stalled = try #require(ControlSocketClient(path: path))
        var size: Int32 = 4096
        setsockopt(stalled.fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        stalled.call(#"{"method":"io.widgetscheduler.Scheduler.Watch","more":true}"#, loop: loop)
        turn { !handler.watchers.isEmpty }
        for index in 0..<40_000 where handler.closedWatchers == 0 {
            handler.broadcast("w\(index)")
            if index % 100 == 0 { _ = try? loop.runOnce(timeout: 0) }
        }
        #expect(handler.closedWatchers == 1)
        #expect(server.bufferedByteCount < 1 << 20)
        let bystander = try #require(ControlSocketClient(path: path))
        bystander.call(#"{"method":"io.widgetscheduler.Scheduler.Status"}"#, loop: loop)
        #expect(bystander.nextReply(loop: loop)?.error == nil)
        // The stalled client finds the events its socket held, then the end of the stream, told why when the reply
        // fitted in its socket (its buffer was full, so it may not have).
        var replies: [VarlinkReply] = []
        while let reply = stalled.nextReply(loop: loop, timeout: 2) { replies.append(reply) }
        #expect(stalled.sawEnd)
        #expect(replies.dropLast().allSatisfy { $0.isContinued })
        #expect(replies.last?.isContinued == true || replies.last?.error == ControlError.Name.bufferFull)
    }

    @Test func theEarliestDeadlineMovesWithReloadedLimits() throws {
        let server = try server(limits: ControlLimits(idleTimeout: 3600))
        defer { server.stop() }
        let idle = try #require(ControlSocketClient(path: path))
        turn { server.connectionCount == 1 }
        server.replaceLimits(ControlLimits(idleTimeout: 0.2))
        #expect(idle.nextReply(loop: loop)?.controlError == .connectionTimedOut(.idle, seconds: 0.2))
    }

    private func turn(for seconds: Double) {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline { _ = try? loop.runOnce(timeout: 10_000) }
    }
}
