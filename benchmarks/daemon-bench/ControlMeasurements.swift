import Foundation

/// Measurements through the control socket, each with a raw client: the daemon's reply time, not a CLI's start-up.
enum ControlMeasurements {
    static let interface = "io.widgetscheduler.Scheduler"

    /// P1: counts successful `runFinished` events on a `Watch` stream over `--seconds`, after `--warmup` seconds.
    static func runs(_ options: BenchOptions) throws {
        let connection = try RawVarlinkConnection(path: try options.string("socket"))
        let warmup = try options.double("warmup", 1)
        let seconds = try options.double("seconds", 10)
        try connection.send(#"{"method":"\#(interface).Watch","more":true,"parameters":{}}"#)
        let marker = Array(#""outcome":"success""#.utf8)
        let started = Clock.monotonic()
        var counted = 0
        var failed = 0
        var windowStart: Double?
        while true {
            let now = Clock.monotonic()
            if windowStart == nil && now - started >= warmup { windowStart = now }
            if let windowStart, now - windowStart >= seconds { break }
            guard let reply = try connection.receive() else { throw BenchError("the watch stream ended") }
            guard windowStart != nil, contains(reply.bytes, Array(#""event":"runFinished""#.utf8)) else { continue }
            if contains(reply.bytes, marker) { counted += 1 } else { failed += 1 }
        }
        let elapsed = Clock.monotonic() - (windowStart ?? started)
        print(String(format: "runs=%d failed=%d seconds=%.3f rate=%.1f", counted, failed, elapsed,
                     Double(counted) / elapsed))
    }

    /// P4: lateness of `entryChanged` events against the date in the entry's content (`"t"`), until `--expect`
    /// events arrived or `--timeout` seconds passed.
    static func entries(_ options: BenchOptions) throws {
        let connection = try RawVarlinkConnection(path: try options.string("socket"))
        let expected = try options.int("expect", 1_000)
        let timeout = try options.double("timeout", 60)
        try connection.send(#"{"method":"\#(interface).Watch","more":true,"parameters":{}}"#)
        var lateness: [Double] = []
        var early = 0
        let started = Clock.monotonic()
        while lateness.count < expected, Clock.monotonic() - started < timeout {
            guard let reply = try connection.receive(timeout: timeout) else { break }
            guard contains(reply.bytes, Array(#""event":"entryChanged""#.utf8)),
                  let object = try? JSONSerialization.jsonObject(with: Data(reply.bytes)) as? [String: Any],
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
        let connection = try RawVarlinkConnection(path: try options.string("socket"))
        let calls = try options.int("calls", 100)
        let warmup = try options.int("warmup", 5)
        let pause = try options.double("pause", 0)
        var samples: [Double] = []
        var size = 0
        for index in 0..<(warmup + calls) {
            let started = Clock.monotonic()
            size = try connection.call(request).count
            let elapsed = Clock.monotonic() - started
            if index >= warmup { samples.append(elapsed) }
            if pause > 0 { usleep(UInt32(pause * 1e6)) }
        }
        print("\(label) \(Percentiles(samples).summary) reply_bytes=\(size)")
    }

    static func contains(_ haystack: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        var index = haystack.startIndex
        let last = haystack.endIndex - needle.count
        while index <= last {
            if haystack[index] == needle[0] && haystack[index..<(index + needle.count)].elementsEqual(needle) {
                return true
            }
            index += 1
        }
        return false
    }
}
