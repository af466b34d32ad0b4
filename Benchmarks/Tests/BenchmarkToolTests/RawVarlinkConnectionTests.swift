import Foundation
import Glibc
import Testing
@testable import daemon_bench
import WidgetSchedulerTestKit

/// The benchmark clients' connection: replies come out whole and in order, each stamped with the read that completed
/// it, whether many arrive in one read or one arrives in several (P4 charges the daemon for the stamp).
@Suite("Benchmark client replies")
struct RawVarlinkConnectionTests {
    /// The server's end of the one connection made to a `UnixListener`.
    final class Server {
        let listener: UnixListener
        private(set) var peer: Int32 = -1
        var path: String { listener.path }

        init() throws {
            listener = try UnixListener(prefix: "raw-varlink")
        }

        func accept() {
            peer = listener.accept()
        }

        func write(_ text: String) {
            let bytes = Array(text.utf8)
            _ = bytes.withUnsafeBytes { Glibc.send(peer, $0.baseAddress, $0.count, 0) }
        }

        deinit {
            close(peer)
        }
    }

    @Test func repliesArrivingInOneReadComeOutInOrderWithThatReadsTime() throws {
        let server = try Server()
        let connection = try RawVarlinkConnection.bench(path: server.path)
        server.accept()
        server.write("{\"a\":1}\0{\"b\":2}\0{\"c\":3}\0")
        usleep(10_000)
        let before = Clock.wall()
        let first = try #require(try connection.nextReply(timeout: 5))
        // The later replies were completed by the same read, however long this client takes to ask for them.
        usleep(20_000)
        let second = try #require(try connection.nextReply(timeout: 5))
        let third = try #require(try connection.nextReply(timeout: 5))
        #expect(String(decoding: first.bytes, as: UTF8.self) == "{\"a\":1}")
        #expect(String(decoding: second.bytes, as: UTF8.self) == "{\"b\":2}")
        #expect(String(decoding: third.bytes, as: UTF8.self) == "{\"c\":3}")
        #expect(first.wall >= before)
        #expect(second.wall == first.wall)
        #expect(third.wall == first.wall)
    }

    @Test func aReplyInSeveralReadsHasTheTimeOfTheReadThatCompletedIt() throws {
        let server = try Server()
        let connection = try RawVarlinkConnection.bench(path: server.path)
        server.accept()
        server.write("{\"a\":1}\0{\"b\":")
        let first = try #require(try connection.nextReply(timeout: 5))
        #expect(String(decoding: first.bytes, as: UTF8.self) == "{\"a\":1}")
        // The first read held the reply's start: its end, written now, is read when the reply is asked for.
        server.write("2}\0")
        let written = Clock.wall()
        let second = try #require(try connection.nextReply(timeout: 5))
        #expect(String(decoding: second.bytes, as: UTF8.self) == "{\"b\":2}")
        #expect(second.wall >= written)
    }
}
