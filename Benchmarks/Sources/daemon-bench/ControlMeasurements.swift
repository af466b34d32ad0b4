import Foundation
import WidgetSchedulerCore
import WidgetSchedulerTestKit

/// Measurements through the control socket, each with a raw client: the daemon's reply time, not a CLI's start-up.
enum ControlMeasurements {
    static let interface = "io.widgetscheduler.Scheduler"

    /// P1: counts the `runFinished` events of a `Watch` stream whose run ended inside a window of `--seconds`, after
    /// `--warmup` seconds, by the event's own date (the daemon's clock at the run's end). The stream is read in bulk
    /// every `--batch` seconds rather than event by event, so that this client's own wake-ups (one per run, about a
    /// hundredth of the machine at P1's rate) do not count against the daemon, which encodes and sends every event
    /// all the same.
    static func runs(_ options: BenchOptions) throws {
        let connection = try RawVarlinkConnection.bench(path: try options.string("socket"))
        let warmup = try options.double("warmup", 1)
        let seconds = try options.double("seconds", 10)
        let batch = try options.double("batch", 0.05)
        try connection.sendRequest(#"{"method":"\#(interface).Watch","more":true,"parameters":{}}"#)
        let windowStart = Clock.wall() + warmup
        let windowEnd = windowStart + seconds
        let event = Array(#""event":"runFinished""#.utf8)
        let success = Array(#""outcome":"success""#.utf8)
        var counted = 0
        var failed = 0
        var finished = false
        while !finished {
            usleep(useconds_t(batch * 1e6))
            // Events of runs that ended just before the window's end may still be on their way.
            finished = Clock.wall() >= windowEnd + 0.2
            let open = try connection.drain { reply in
                guard reply.holds(event) else { return }
                // Not skipped: a run left uncounted would lower the rate without a word.
                guard let date = eventDate(reply) else {
                    let text = String(decoding: reply.prefix(300), as: UTF8.self)
                    throw BenchError("a runFinished event without a readable \"date\": \(text)")
                }
                guard date >= windowStart, date < windowEnd else { return }
                if reply.holds(success) { counted += 1 } else { failed += 1 }
            }
            guard open else { throw BenchError("the watch stream ended") }
        }
        print(String(format: "runs=%d failed=%d seconds=%.3f rate=%.1f", counted, failed, seconds,
                     Double(counted) / seconds))
    }

    /// The `"date"` of a Watch event in seconds since 1970; nil if it has none.
    static func eventDate(_ reply: ArraySlice<UInt8>) -> Double? {
        guard let offset = reply.offset(of: dateKey) else { return nil }
        let start = reply.startIndex + offset + dateKey.count
        guard let end = reply[start...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        return RFC3339.date(from: String(decoding: reply[start..<end], as: UTF8.self))?.timeIntervalSince1970
    }

    private static let dateKey = Array(#""date":""#.utf8)

    /// P4: lateness of `entryChanged` events against the date in the entry's content (`"t"`), until `--expect`
    /// events arrived or `--timeout` seconds passed.
    static func entries(_ options: BenchOptions) throws {
        let connection = try RawVarlinkConnection.bench(path: try options.string("socket"))
        let expected = try options.int("expect", 1_000)
        let timeout = try options.double("timeout", 60)
        try connection.sendRequest(#"{"method":"\#(interface).Watch","more":true,"parameters":{}}"#)
        let entryChanged = Array(#""event":"entryChanged""#.utf8)
        // The events are kept as they arrive and read after the last: decoding each one before reading the next
        // made a burst's later events wait in the socket for this client, and charged that to the daemon.
        // Copied out, so that the inbox is not copied whole when it drops what it handed out.
        var arrived: [(bytes: [UInt8], wall: Double)] = []
        arrived.reserveCapacity(expected)
        let started = Clock.monotonic()
        while arrived.count < expected, Clock.monotonic() - started < timeout {
            guard let reply = try connection.nextReply(timeout: timeout) else { break }
            if reply.bytes.holds(entryChanged) { arrived.append((Array(reply.bytes), reply.wall)) }
        }
        var lateness: [Double] = []
        var early = 0
        for reply in arrived {
            guard let object = try? JSONSerialization.jsonObject(with: Data(reply.bytes)) as? [String: Any],
                  let parameters = object["parameters"] as? [String: Any],
                  let content = parameters["content"] as? [String: Any], let date = content["t"] as? Double
            else { continue }
            let late = reply.wall - date
            if late < 0 { early += 1 }
            lateness.append(late)
        }
        print("entries \(Percentiles(lateness).summary) early=\(early) expected=\(expected)")
    }

    /// P5: round trips of `Reload` with `{"kind": K}`, timed from the write to the reply's last byte.
    static func reload(_ options: BenchOptions) throws {
        let kind = try options.string("kind")
        try timeCalls(options, #"{"method":"\#(interface).Reload","parameters":{"kind":"\#(kind)"}}"#, "reload")
    }

    /// P2: round trips of `List`.
    static func list(_ options: BenchOptions) throws {
        try timeCalls(options, #"{"method":"\#(interface).List","parameters":{}}"#, "list")
    }

    private static func timeCalls(_ options: BenchOptions, _ request: String, _ label: String) throws {
        let connection = try RawVarlinkConnection.bench(path: try options.string("socket"))
        let calls = try options.int("calls", 100)
        let warmup = try options.int("warmup", 5)
        let pause = try options.double("pause", 0)
        var samples: [Double] = []
        var size = 0
        for index in 0..<(warmup + calls) {
            let started = Clock.monotonic()
            size = try connection.call(request: request).count
            let elapsed = Clock.monotonic() - started
            if index >= warmup { samples.append(elapsed) }
            if pause > 0 { usleep(UInt32(pause * 1e6)) }
        }
        print("\(label) \(Percentiles(samples).summary) reply_bytes=\(size)")
    }
}
