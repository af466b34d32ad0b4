import Foundation
import Glibc
import Testing
import WidgetHost
import WidgetSchedulerTestKit

/// A fake daemon's end of `Watch` connections, on a thread: for each connection, reads the call and plays a script.
/// What it sees is reported on `reports`, so that a test waits for it instead of sleeping.
private final class FakeWatchDaemon: @unchecked Sendable {
    enum Step {
        /// Sends one continued `entryChanged` event for this widget.
        case event(String)
        /// Sends an `entryChanged` event for each of these widgets, all in one write.
        case burst([String])
        /// Waits until the test calls `proceed()`.
        case waitForTest
        /// Reads until the feed closes its end (reported as "closed"), or reports "still open" after a minute.
        case expectClose
        /// Closes the daemon's end.
        case close
    }

    let listener: UnixListener
    let reports: AsyncStream<String>
    private let reporter: AsyncStream<String>.Continuation
    private let go = DispatchSemaphore(value: 0)

    init(connections: [[Step]]) throws {
        listener = try UnixListener(prefix: "watch-feed")
        (reports, reporter) = AsyncStream.makeStream(of: String.self)
        let thread = Thread { [self] in
            for script in connections { serve(script) }
            reporter.finish()
        }
        thread.start()
    }

    func proceed() { go.signal() }

    private func serve(_ script: [Step]) {
        let connection = listener.accept()
        var byte: UInt8 = 0
        while recv(connection, &byte, 1, 0) == 1 && byte != 0 {}
        reporter.yield("called")
        for step in script {
            switch step {
            case .event(let widget):
                write([widget], to: connection)
            case .burst(let widgets):
                write(widgets, to: connection)
            case .waitForTest:
                go.wait()
            case .expectClose:
                var descriptor = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
                let ready = poll(&descriptor, 1, 60_000)
                reporter.yield(ready == 1 && recv(connection, &byte, 1, 0) == 0 ? "closed" : "still open")
            case .close:
                break
            }
        }
        close(connection)
    }

    private func write(_ widgets: [String], to connection: Int32) {
        var bytes: [UInt8] = []
        for widget in widgets {
            let event = #"{"continues":true,"parameters":{"date":"2026-11-22T10:37:07Z","event":"entryChanged","#
                + #""kind":"k","widget":"\#(widget)","content":1}}"#
            bytes += Array(event.utf8) + [0]
        }
        _ = bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }
}

/// What a test compares of the feed's messages.
private func summary(_ message: WatchFeed.Message) -> String {
    switch message {
    case .connected: "connected"
    case .events(let events): "events " + events.map(\.widget).joined(separator: " ")
    case .disconnected: "disconnected"
    }
}

/// Starts a feed on the daemon's socket and a host task that listens to it: the task, to cancel, and what it heard.
private func startHost(on daemon: FakeWatchDaemon) -> (Task<Void, Never>, AsyncStream<String>.Iterator) {
    let feed = WatchFeed(socketPath: daemon.listener.path)
    feed.start()
    let (seen, seenContinuation) = AsyncStream.makeStream(of: String.self)
    let host = Task {
        for await message in feed.messages { seenContinuation.yield(summary(message)) }
    }
    return (host, seen.makeAsyncIterator())
}

@Suite struct WatchFeedTests {
    @Test func theFeedSaysConnectedThenEachEventThenTheEndAndConnectsAgain() async throws {
        let daemon = try FakeWatchDaemon(connections: [
            [.event("w1"), .close],
            [.event("w2"), .waitForTest, .close],
        ])
        var (host, seenMessages) = startHost(on: daemon)
        var summaries: [String] = []
        for _ in 0..<5 { summaries.append(await seenMessages.next() ?? "nothing") }
        #expect(summaries == ["connected", "events w1", "disconnected", "connected", "events w2"])
        // Lets the feed's thread end: nobody listens any more when the second connection closes.
        host.cancel()
        await host.value
        daemon.proceed()
    }

    /// Events written together reach the host as one message, in order; one that comes alone is not held back.
    @Test func eventsThatArriveTogetherAreOneMessage() async throws {
        let daemon = try FakeWatchDaemon(connections: [[.burst(["w1", "w2", "w3"]), .waitForTest, .event("w4"),
                                                         .waitForTest, .close]])
        var (host, seenMessages) = startHost(on: daemon)
        #expect(await seenMessages.next() == "connected")
        #expect(await seenMessages.next() == "events w1 w2 w3")
        daemon.proceed()
        #expect(await seenMessages.next() == "events w4")
        host.cancel()
        await host.value
        daemon.proceed()
    }

    /// When the host stops listening (its task cancelled), the feed ends its stream at the next event and closes the
    /// connection, rather than holding the daemon's `Watch` for nobody.
    @Test func aFeedNobodyListensToClosesItsConnectionAtTheNextEvent() async throws {
        let daemon = try FakeWatchDaemon(connections: [[.event("w1"), .waitForTest, .event("w2"), .expectClose]])
        var (host, seenMessages) = startHost(on: daemon)
        #expect(await seenMessages.next() == "connected")
        #expect(await seenMessages.next() == "events w1")
        host.cancel()
        await host.value
        daemon.proceed()
        var reports = daemon.reports.makeAsyncIterator()
        #expect(await reports.next() == "called")
        #expect(await reports.next() == "closed")
    }
}
