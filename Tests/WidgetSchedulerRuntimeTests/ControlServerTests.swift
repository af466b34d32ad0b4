import Foundation
import Glibc
import SystemdKit
import Testing
import WidgetProtocol
@testable import WidgetSchedulerRuntime

@Suite struct ControlServerTests {
    private let loop: EventLoop
    private let handler = ControlTestHandler()
    private let directory = controlSocketDirectory()
    private var path: String { directory + "/control.socket" }

    init() throws {
        loop = try EventLoop()
    }

    private func server(maximumConnections: Int = 4096) throws -> ControlServer {
        let server = ControlServer(
            loop: loop, handler: handler,
            configuration: .init(version: "test", maximumConnections: maximumConnections))
        try server.listen(path: path)
        return server
    }

    private func turn(until condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(10)
        while !condition() && Date() < deadline {
            _ = try? loop.runOnce(timeout: 10_000)
        }
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
        #expect(last == VarlinkReply(parameters: [:]))
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
        let server = try server(maximumConnections: 2)
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
}
