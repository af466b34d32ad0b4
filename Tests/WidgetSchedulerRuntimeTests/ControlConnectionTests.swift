import Foundation
import Testing
import WidgetProtocol
@testable import WidgetSchedulerRuntime

@Suite struct ControlConnectionTests {
    private let handler = ControlTestHandler()
    private let peer = PeerCredentials(pid: 77, uid: 1000, gid: 1000)

    private func connection(
        maximumMessageSize: Int = ControlInterface.maximumMessageSize, backlogLimit: Int = 1 << 18,
        budget: BufferBudget = BufferBudget(limit: .max), id: Int = 1
    ) -> ControlConnection {
        let info = ControlServer.Configuration(version: "test").info
        return ControlConnection(
            id: id, peer: peer, router: ControlRouter(info: info), handler: handler,
            maximumMessageSize: maximumMessageSize, outputHighWater: 1 << 16, backlogLimit: backlogLimit,
            budget: budget)
    }

    /// Everything the connection wants written, as replies, giving it the turns its waiting calls need (as the server
    /// does, one per loop iteration); marks it written.
    private func written(_ connection: ControlConnection) -> [VarlinkReply] {
        var bytes: [UInt8] = []
        while true {
            let chunk = connection.withPendingOutput { Array($0) }
            connection.didWrite(chunk.count)
            bytes += chunk
            guard connection.hasWaitingCalls else { break }
            connection.newTurn()
        }
        return controlReplies(bytes)
    }

    @Test func callReachesTheHandlerWithThePeer() {
        let connection = connection()
        connection.receive(controlMessage(#"{"method":"io.widgetscheduler.Scheduler.Status"}"#))
        #expect(written(connection) == [VarlinkReply(parameters: ["pid": .integer(77), "uid": .integer(1000)])])
        #expect(handler.calls.map(\.method) == [.status])
    }

    @Test func wholeMessageRepliesArriveInCallOrderBehindUnwrittenOutput() {
        let connection = connection()
        let list = controlMessage(#"{"method":"io.widgetscheduler.Scheduler.List"}"#)
        let status = controlMessage(#"{"method":"io.widgetscheduler.Scheduler.Status"}"#)
        // Three calls in one read: the second List's message is queued behind output not yet written.
        connection.receive(list + status + list)
        #expect(written(connection) == [
            VarlinkReply(parameters: ["widgets": .array([.object(["n": .integer(1)])])]),
            VarlinkReply(parameters: ["pid": .integer(77), "uid": .integer(1000)]),
            VarlinkReply(parameters: ["widgets": .array([.object(["n": .integer(3)])])]),
        ])
        connection.receive(list)
        #expect(written(connection) == [VarlinkReply(parameters: ["widgets": .array([.object(["n": .integer(4)])])])])
    }

    @Test func badJSONGetsInvalidMessageAndTheConnectionStaysUsable() {
        let connection = connection()
        connection.receive(controlMessage("{nope"))
        #expect(written(connection).map(\.error) == [ControlError.Name.invalidMessage])
        connection.receive(controlMessage(#"{"method":"io.widgetscheduler.Scheduler.Status"}"#))
        #expect(written(connection).first?.error == nil)
        #expect(!connection.closed)
    }

    @Test(arguments: [
        (#"[1,2]"#, "a call must be a JSON object, not array"),
        (#"{"parameters":{}}"#, #""method" must be a string, found nothing"#),
        (#"{"method":5}"#, #""method" must be a string, found an integer"#),
        (#"{"method":"a.B","parameters":[]}"#, #""parameters" must be an object, not array"#),
        (#"{"method":"a.B","more":"yes"}"#, #""more" must be a boolean, not string"#),
    ])
    func malformedCallsSayWhatIsWrong(json: String, reason: String) {
        let connection = connection()
        connection.receive(controlMessage(json))
        #expect(written(connection) == [VarlinkReply(error: .invalidMessage(reason))])
    }

    @Test func unknownMethodAndInterfaceGetStandardErrors() {
        let connection = connection()
        connection.receive(controlMessage(#"{"method":"io.widgetscheduler.Scheduler.Explode"}"#))
        connection.receive(controlMessage(#"{"method":"com.example.Thing.Do"}"#))
        #expect(written(connection) == [
            VarlinkReply(error: .methodNotFound("io.widgetscheduler.Scheduler.Explode")),
            VarlinkReply(error: .interfaceNotFound("com.example.Thing")),
        ])
        #expect(handler.calls.isEmpty)
    }

    @Test func serviceAnswersGetInfoAndTheInterfaceDescription() throws {
        let connection = connection()
        connection.receive(controlMessage(#"{"method":"org.varlink.service.GetInfo"}"#))
        connection.receive(controlMessage(
            #"{"method":"org.varlink.service.GetInterfaceDescription","#
                + #""parameters":{"interface":"io.widgetscheduler.Scheduler"}}"#))
        connection.receive(controlMessage(
            #"{"method":"org.varlink.service.GetInterfaceDescription","parameters":{"interface":"x.y"}}"#))
        let replies = written(connection)
        #expect(replies.count == 3)
        let info = try VarlinkCoding.decode(VarlinkServiceInfo.self, from: replies[0].parameters)
        #expect(info.interfaces == ["org.varlink.service", "io.widgetscheduler.Scheduler"])
        #expect(replies[1].parameters?["description"] == .string(ControlInterface.description))
        #expect(replies[2].error == ControlError.Name.interfaceNotFound)
    }

    @Test func wrongParameterTypeIsNamedByTheHandlersDecoding() {
        let connection = connection()
        connection.receive(controlMessage(
            #"{"method":"io.widgetscheduler.Scheduler.Reload","parameters":{"widgets":[1]}}"#))
        #expect(written(connection) == [
            VarlinkReply(error: .invalidParameter("widgets[0]", reason: "must be a string")),
        ])
    }

    @Test func streamingMethodWithoutMoreGetsExpectedMore() {
        let connection = connection()
        connection.receive(controlMessage(#"{"method":"io.widgetscheduler.Scheduler.Watch"}"#))
        #expect(written(connection) == [VarlinkReply(error: .expectedMore())])
    }

    @Test func pendingCallHoldsBackLaterCallsUntilItIsAnswered() {
        let connection = connection()
        connection.receive(controlMessage(
            #"{"method":"io.widgetscheduler.Scheduler.Options","parameters":{"kind":"k","parameter":"p"}}"#)
            + controlMessage(#"{"method":"io.widgetscheduler.Scheduler.Status"}"#))
        #expect(written(connection).isEmpty)
        #expect(handler.calls.map(\.method) == [.options])
        handler.pendingOptions[0].reply(OptionsMethod.Reply(options: [], source: .manifest))
        let replies = written(connection)
        #expect(replies.count == 2)
        #expect(replies[0].parameters?["source"] == .string("manifest"))
        #expect(replies[1].parameters?["pid"] == .integer(77))
    }

    @Test func streamSendsContinuedRepliesUntilTheLast() {
        let connection = connection()
        connection.receive(controlMessage(#"{"method":"io.widgetscheduler.Scheduler.Watch","more":true}"#))
        handler.broadcast("w1")
        handler.broadcast("w2")
        let streamed = written(connection)
        #expect(streamed.map(\.isContinued) == [true, true])
        #expect(streamed.map { $0.parameters?["content"] } == [.string("w1"), .string("w2")])
        connection.endForShutdown()
        let last = written(connection)
        #expect(last == [VarlinkReply(error: .daemonStopping())], "a declared error ends the stream")
        #expect(connection.closed)
    }

    @Test func peerHangingUpOnAStreamClosesTheCall() {
        let connection = connection()
        connection.receive(controlMessage(#"{"method":"io.widgetscheduler.Scheduler.Watch","more":true}"#))
        connection.receiveEnd()
        #expect(connection.closed)
        #expect(handler.closedWatchers == 1)
        #expect(!handler.watchers[0].isOpen)
        #expect(handler.watchers[0].stream(NoParameters()) == false)
    }

    @Test func streamNobodyReadsIsDroppedAtTheOutputLimit() {
        let connection = connection()
        connection.receive(controlMessage(#"{"method":"io.widgetscheduler.Scheduler.Watch","more":true}"#))
        for index in 0..<5000 where !connection.dropped {
            handler.broadcast("w\(index)")
        }
        #expect(connection.dropped)
        #expect(handler.closedWatchers == 1)
    }

    @Test func onewayCallGetsNoReply() {
        let connection = connection()
        connection.receive(controlMessage(
            #"{"method":"io.widgetscheduler.Scheduler.Reload","parameters":{"widgets":["w1"]},"oneway":true}"#))
        connection.receive(controlMessage(#"{"method":"org.varlink.service.GetInfo","oneway":true}"#))
        #expect(written(connection).isEmpty)
        #expect(handler.calls.map(\.method) == [.reload])
    }

    /// A method that changes nothing has no effect without its reply: a burst of them costs the loop no work.
    @Test func onewayCallsOfMethodsThatChangeNothingAreNotDispatched() {
        let connection = connection()
        let open = ControlMethod.allCases.filter { !$0.isPrivileged }
        var burst: [UInt8] = []
        for method in open {
            burst += controlMessage(#"{"method":"\#(method.qualifiedName)","parameters":{},"oneway":true}"#)
        }
        connection.receive(burst)
        #expect(written(connection).isEmpty)
        #expect(handler.calls.isEmpty)
        #expect(!connection.closed)
    }

    @Test func oneCallIsDispatchedPerTurnAndReadingWaitsForTheNext() {
        let connection = connection()
        let status = controlMessage(#"{"method":"io.widgetscheduler.Scheduler.Status"}"#)
        connection.receive(status + status + status)
        #expect(handler.calls.count == 1)
        #expect(connection.hasWaitingCalls)
        #expect(!connection.interest.read)
        #expect(!connection.holdsIncompleteMessage())
        connection.newTurn()
        #expect(handler.calls.count == 2)
        connection.newTurn()
        #expect(handler.calls.count == 3)
        #expect(!connection.hasWaitingCalls)
        #expect(connection.interest.read)
        #expect(controlReplies(connection.withPendingOutput { Array($0) }).count == 3)
    }

    @Test func onewayBurstIsSpreadOverTurns() {
        let connection = connection()
        var burst: [UInt8] = []
        for index in 0..<48 {
            burst += controlMessage(
                #"{"method":"io.widgetscheduler.Scheduler.Reload","parameters":{"widgets":["w\#(index)"]},"#
                    + #""oneway":true}"#)
        }
        connection.receive(burst)
        var turns = 1
        while connection.hasWaitingCalls {
            connection.newTurn()
            turns += 1
        }
        #expect(handler.calls.count == 48)
        #expect(turns == 48)
        #expect(connection.pendingOutputCount == 0)
    }

    @Test func endOfInputWithCallsWaitingForTheirTurnClosesCleanly() {
        let connection = connection()
        let status = controlMessage(#"{"method":"io.widgetscheduler.Scheduler.Status"}"#)
        connection.receive(status + status)
        connection.receiveEnd()
        let replies = written(connection)
        #expect(replies.count == 2)
        #expect(replies.allSatisfy { $0.error == nil })
        #expect(connection.closed)
    }

    @Test func aMessageIsIncompleteUntilItsEndComes() {
        let connection = connection()
        #expect(!connection.holdsIncompleteMessage())
        connection.receive(Array(#"{"method":"io.widgetscheduler.Sch"#.utf8))
        #expect(connection.holdsIncompleteMessage())
        connection.receive(controlMessage(#"eduler.Status"}"#))
        #expect(!connection.holdsIncompleteMessage())
        #expect(connection.messagesTaken == 1)
    }

    @Test func theBudgetCountsEveryByteHeldAndGetsThemBackOnClose() {
        let budget = BufferBudget(limit: .max)
        let connection = connection(budget: budget)
        connection.receive(Array(#"{"method":"io.widgetscheduler.Sch"#.utf8))
        #expect(budget.used >= 33)
        #expect(budget.used == connection.heldByteCount)
        connection.receive(controlMessage(#"eduler.Status"}"#))
        #expect(budget.used >= connection.pendingOutputCount)
        #expect(budget.used == connection.heldByteCount)
        connection.receive(Array("{".utf8))
        connection.abort()
        #expect(budget.used == 0)
    }

    @Test func streamPastItsBacklogLimitIsDroppedWithALastError() throws {
        let connection = connection(backlogLimit: 1 << 17)
        connection.receive(controlMessage(#"{"method":"io.widgetscheduler.Scheduler.Watch","more":true}"#))
        handler.broadcast("w0")
        // The client read part of the first event: the rest of it must still come before the error.
        connection.didWrite(10)
        for index in 1..<5000 where !connection.dropped {
            handler.broadcast("w\(index)")
        }
        #expect(connection.dropped)
        #expect(handler.closedWatchers == 1)
        let rest = connection.withPendingOutput { Array($0) }
        let first = try #require(rest.firstIndex(of: 0))
        #expect(rest.count < 1024, "the unread events are discarded")
        let last = try #require(controlReplies(Array(rest[(first + 1)...])).last)
        #expect(last.controlError == .bufferFull(.streamBacklog, limit: 1 << 17))
        #expect(!connection.interest.read)
    }

    @Test func pastTheBudgetTheStreamHoldingMoreThanItsShareIsDropped() {
        let budget = BufferBudget(limit: 1 << 20)
        let reader = connection(budget: budget, id: 1)
        let stalled = connection(backlogLimit: 4 << 20, budget: budget, id: 2)
        reader.receive(controlMessage(#"{"method":"io.widgetscheduler.Scheduler.Watch","more":true}"#))
        stalled.receive(controlMessage(#"{"method":"io.widgetscheduler.Scheduler.Watch","more":true}"#))
        for index in 0..<20_000 where !stalled.dropped {
            handler.broadcast("w\(index)")
            reader.didWrite(reader.pendingOutputCount)
        }
        #expect(stalled.dropped)
        #expect(!reader.dropped)
        let last = controlReplies(stalled.withPendingOutput { Array($0) }).last
        #expect(last?.controlError == .bufferFull(.daemonBudget, limit: 1 << 20))
        #expect(budget.used < 1 << 16)
    }

    @Test func pastTheBudgetAnIncompleteMessageHoldingMoreThanItsShareIsDropped() {
        let budget = BufferBudget(limit: 256 << 10)
        let connection = connection(budget: budget)
        let chunk = [UInt8](repeating: 0x20, count: 64 << 10)
        for _ in 0..<5 where !connection.dropped { connection.receive(chunk) }
        #expect(connection.dropped)
        #expect(controlReplies(connection.withPendingOutput { Array($0) }).last?.controlError
                == .bufferFull(.daemonBudget, limit: 256 << 10))
        #expect(budget.used < 1024)
    }

    @Test func aCallWhoseLargestReplyWouldNotFitInTheBudgetIsRefusedAndTheConnectionStays() throws {
        let largest = try #require(ControlMethod.image.largestReplyBytes)
        let budget = BufferBudget(limit: largest - 1)
        let connection = connection(budget: budget)
        let image = controlMessage(#"{"method":"io.widgetscheduler.Scheduler.Image","parameters":{"sha256":"0"}}"#)
        connection.receive(image)
        #expect(written(connection) == [VarlinkReply(error: .bufferFull(.daemonBudget, limit: largest - 1))])
        #expect(handler.calls.isEmpty, "refused before the handler reads the image")
        #expect(!connection.dropped && !connection.closed)
        // The connection's own buffers count too: room for a whole reply beside them.
        budget.limit = largest + (1 << 20)
        connection.receive(image)
        _ = written(connection)
        #expect(handler.calls.map(\.method) == [.image], "with room for the reply, the call is answered")
    }

    @Test func oversizedMessageGetsAnErrorThenTheConnectionCloses() {
        let connection = connection(maximumMessageSize: 64)
        connection.receive(Array(repeating: 0x20, count: 100))
        #expect(connection.interest.write)
        #expect(written(connection) == [VarlinkReply(error: .invalidMessage("message larger than 64 bytes"))])
        #expect(connection.closed)
    }

    @Test func endOfInputAfterACallClosesOnceTheReplyIsWritten() {
        let connection = connection()
        connection.receive(controlMessage(#"{"method":"io.widgetscheduler.Scheduler.Status"}"#))
        connection.receiveEnd()
        #expect(!connection.closed)
        #expect(written(connection).count == 1)
        #expect(connection.closed)
    }

    @Test func endOfInputInsideAMessageIsReported() {
        let connection = connection()
        connection.receive(Array(#"{"method":"io.widg"#.utf8))
        connection.receiveEnd()
        #expect(written(connection) == [
            VarlinkReply(error: .invalidMessage("connection closed in the middle of a message")),
        ])
        #expect(connection.closed)
    }

    @Test func pipelinedCallsAreAnsweredInOrder() {
        let connection = connection()
        var bytes: [UInt8] = []
        for index in 0..<50 {
            bytes += controlMessage(
                #"{"method":"io.widgetscheduler.Scheduler.Reload","parameters":{"widgets":["w\#(index)"]}}"#)
        }
        connection.receive(bytes)
        let widgets = written(connection).compactMap { reply -> String? in
            guard case .array(let decisions)? = reply.parameters?["decisions"],
                  case .object(let first)? = decisions.first else { return nil }
            return first["widget"]?.stringValue
        }
        #expect(widgets == (0..<50).map { "w\($0)" })
    }
}
