import Testing
import WidgetSchedulerRuntime

@Suite struct ControlFramerTests {
    private func drain(_ framer: inout VarlinkFramer) throws -> [String] {
        var messages: [String] = []
        while let message = try framer.nextMessage() {
            messages.append(String(decoding: message, as: UTF8.self))
        }
        return messages
    }

    @Test func splitsSeveralMessagesInOneChunk() throws {
        var framer = VarlinkFramer()
        framer.append(Array("{\"a\":1}\0{\"b\":2}\0{\"c\"".utf8))
        #expect(try drain(&framer) == ["{\"a\":1}", "{\"b\":2}"])
        #expect(framer.bufferedByteCount == 4)
        framer.append(Array(":3}\0".utf8))
        #expect(try drain(&framer) == ["{\"c\":3}"])
        #expect(framer.bufferedByteCount == 0)
    }

    @Test func assemblesAMessageDeliveredByteByByte() throws {
        var framer = VarlinkFramer()
        var messages: [String] = []
        for byte in Array("{\"method\":\"x\"}\0".utf8) {
            framer.append([byte])
            messages += try drain(&framer)
        }
        #expect(messages == ["{\"method\":\"x\"}"])
    }

    @Test func emptyMessageIsHandedOutAsEmpty() throws {
        var framer = VarlinkFramer()
        framer.append([0, 0])
        #expect(try drain(&framer) == ["", ""])
    }

    @Test func garbageIsSplitAsBytesWithoutJudgingIt() throws {
        var framer = VarlinkFramer()
        framer.append([0xFF, 0xFE, 0x00, 0x7B])
        #expect(try framer.nextMessage() == [0xFF, 0xFE])
        #expect(try framer.nextMessage() == nil)
    }

    @Test func messageAtTheLimitIsAccepted() throws {
        var framer = VarlinkFramer(maximumMessageSize: 16)
        framer.append([UInt8](repeating: 0x61, count: 16) + [0])
        #expect(try framer.nextMessage()?.count == 16)
    }

    @Test func completeMessageOverTheLimitIsRejected() {
        var framer = VarlinkFramer(maximumMessageSize: 16)
        framer.append([UInt8](repeating: 0x61, count: 17) + [0])
        #expect(throws: VarlinkFramer.OversizedMessage(limit: 16)) { try framer.nextMessage() }
    }

    @Test func unterminatedMessageOverTheLimitIsRejectedBeforeItEnds() {
        var framer = VarlinkFramer(maximumMessageSize: 16)
        framer.append([UInt8](repeating: 0x61, count: 10))
        #expect(throws: Never.self) { try framer.nextMessage() }
        framer.append([UInt8](repeating: 0x61, count: 10))
        #expect(throws: VarlinkFramer.OversizedMessage(limit: 16)) { try framer.nextMessage() }
        // Out of step for good: the connection must close.
        framer.append([0])
        #expect(throws: VarlinkFramer.OversizedMessage(limit: 16)) { try framer.nextMessage() }
    }

    @Test func defaultLimitIsOneMebibyte() throws {
        var framer = VarlinkFramer()
        framer.append([UInt8](repeating: 0x20, count: 1 << 20) + [0])
        #expect(try framer.nextMessage()?.count == 1 << 20)
        framer.append([UInt8](repeating: 0x20, count: (1 << 20) + 1))
        #expect(throws: VarlinkFramer.OversizedMessage.self) { try framer.nextMessage() }
    }

    @Test func manyMessagesInALongStreamKeepTheBufferSmall() throws {
        var framer = VarlinkFramer()
        let chunk = Array(String(repeating: "x", count: 1000).utf8) + [0]
        for _ in 0..<500 {
            framer.append(chunk + chunk.prefix(10))
            _ = try drain(&framer)
            framer.append(chunk.dropFirst(10))
            #expect(try drain(&framer).count == 1)
        }
        #expect(framer.bufferedByteCount == 0)
    }
}
