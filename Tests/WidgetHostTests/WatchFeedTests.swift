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
                let event = #"{"continues":true,"parameters":{"date":"2026-11-22T10:37:07Z","event":"entryChanged","#
                    + #""kind":"k","widget":"\#(widget)","content":1}}"#
                let bytes = Array(event.utf8) + [0]
                _ = bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
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
}

/// What a test compares of the feed's messages.
private func summary(_ message: WatchFeed.Message) -> String {
    switch message {
    case .connected: "connected"
    case .event(let event): "event \(event.widget)"
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
        #expect(summaries == ["connected", "event w1", "disconnected", "connected", "event w2"])
        // Lets the feed's thread end: nobody listens any more when the second connection closes.
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
        #expect(await seenMessages.next() == "event w1")
        host.cancel()
        await host.value
        daemon.proceed()
        var reports = daemon.reports.makeAsyncIterator()
        #expect(await reports.next() == "called")
        #expect(await reports.next() == "closed")
    }
}
