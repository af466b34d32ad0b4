import Dispatch
import Foundation
import Glibc
import Testing
import WidgetControl
import WidgetProtocol
import WidgetSchedulerTestKit

/// R3: 10 000 malformed control messages and 1 000 idle connections against the real daemon, started with the
/// descriptor limit systemd gives a service by default (soft 1024), while a well-behaved client keeps calling.
@Suite("R3 malformed control messages", .serialized)
struct MalformedControlTests {
    /// A family of bad messages and how many of each are sent.
    enum Family: String, CaseIterable, Sendable {
        case randomBytes = "random bytes"
        case truncatedJSON = "truncated JSON"
        case wrongTypes = "wrong types"
        case oversized = "2 MB messages"
        case unknownMethods = "unknown methods"

        var count: Int {
            switch self {
            case .randomBytes: 3_000
            case .truncatedJSON: 2_500
            case .wrongTypes: 2_000
            case .oversized: 20
            case .unknownMethods: 2_480
            }
        }
    }

    /// What a message got.
    struct Outcomes {
        var errors = 0
        var errorNames: [String: Int] = [:]
        var closes = 0
        var answered: [String] = []
        var silent: [String] = []

        mutating func merge(_ other: Outcomes) {
            errors += other.errors
            errorNames.merge(other.errorNames, uniquingKeysWith: +)
            closes += other.closes
            answered += other.answered
            silent += other.silent
        }
    }

    static let idleConnections = 1_000
    static let workers = 4

    static let validCalls: [String] = [
        #"{"method":"io.widgetscheduler.Scheduler.Reload","parameters":{"kind":"calm","foreground":true}}"#,
        #"{"method":"io.widgetscheduler.Scheduler.Add","parameters":{"kind":"calm","parameters":{}}}"#,
        #"{"method":"io.widgetscheduler.Scheduler.List"}"#,
        #"{"method":"org.varlink.service.GetInterfaceDescription","parameters":{"interface":"io.widgetscheduler."}}"#,
    ]

    static let wrongTypes: [String] = [
        #"{"method":5}"#, #"{"method":null}"#, #"{"method":["Reload"]}"#, #"[1,2,3]"#, #""just a string""#, "42",
        #"{"method":"io.widgetscheduler.Scheduler.Reload","parameters":[]}"#,
        #"{"method":"io.widgetscheduler.Scheduler.Reload","parameters":{"kind":7}}"#,
        #"{"method":"io.widgetscheduler.Scheduler.Reload","parameters":{"widgets":"w1"}}"#,
        #"{"method":"io.widgetscheduler.Scheduler.Reload","parameters":{"kind":"calm","foreground":"yes"}}"#,
        #"{"method":"io.widgetscheduler.Scheduler.Reload","parameters":{}}"#,
        #"{"method":"io.widgetscheduler.Scheduler.Add","parameters":{"kind":{"a":1}}}"#,
        #"{"method":"io.widgetscheduler.Scheduler.Timeline","parameters":{"widget":1e400}}"#,
        #"{"method":"io.widgetscheduler.Scheduler.List","more":"please"}"#,
        #"{"method":"io.widgetscheduler.Scheduler.List","oneway":1}"#,
        #"{"method":"io.widgetscheduler.Scheduler.DataSet","parameters":{"group":"../etc","key":"pw","value":"x"}}"#,
        #"{"method":"io.widgetscheduler.Scheduler.Configure","parameters":{"widget":"w999","parameters":{"x":1}}}"#,
    ]

    static let unknownMethods: [String] = [
        "io.widgetscheduler.Scheduler.Nope", "org.varlink.service.Nope", "x", "", "io.widgetscheduler.Scheduler.",
        "io.widgetscheduler.Other.Reload", String(repeating: "a.", count: 2_000) + "b",
    ]

    /// Message `index` of `family`, NUL-free (one message, one reply).
    static func message(_ family: Family, _ index: Int, using random: inout SeededGenerator) -> [UInt8] {
        switch family {
        case .randomBytes:
            let length = Int.random(in: 1...512, using: &random)
            return (0..<length).map { _ in UInt8.random(in: 1...255, using: &random) }
        case .truncatedJSON:
            let call = Array(validCalls[index % validCalls.count].utf8)
            return Array(call[..<Int.random(in: 1..<call.count, using: &random)])
        case .wrongTypes:
            return Array(wrongTypes[index % wrongTypes.count].utf8)
        case .oversized:
            let padding = String(repeating: "x", count: 2 << 20)
            return Array(#"{"method":"io.widgetscheduler.Scheduler.List","parameters":{"pad":"\#(padding)"}}"#.utf8)
        case .unknownMethods:
            return Array(#"{"method":"\#(unknownMethods[index % unknownMethods.count])"}"#.utf8)
        }
    }

    @Test("every malformed message gets an error or a clean close; the daemon keeps serving a good client")
    func malformedMessagesAreRefusedCleanly() throws {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        if limit.rlim_cur < 4_096 {
            limit.rlim_cur = min(limit.rlim_max, 4_096)
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        let world = try DaemonWorld(config: "")
        try world.addKind("calm", script: """
            #!/bin/sh
            echo '{"entries":[{"date":"2026-01-01T00:00:00Z","content":{}}],"policy":"never"}'
            """)
        // systemd's default soft limit for services (DefaultLimitNOFILE=1024:524288); the unit sets no LimitNOFILE=.
        // Only the soft limit is lowered: raising the hard one needs CAP_SYS_RESOURCE.
        try world.start(prefix: ["prlimit", "--nofile=1024:\(limit.rlim_max)", "--"])
        _ = try world.connect().add("calm")
        let client = try ControlClient(path: world.socketPath)
        let status = VarlinkRequest(method: ControlMethod.status.qualifiedName)
        func latencies(_ count: Int) throws -> [Double] {
            try (0..<count).map { _ in
                let start = bootSeconds()
                let reply = try client.raw(status, timeout: 10)
                guard reply.error == nil else { throw TestFailure("Status: \(reply)") }
                return bootSeconds() - start
            }
        }
        let before = try latencies(200)

        var idle: [RawVarlinkConnection] = []
        for _ in 0..<Self.idleConnections { idle.append(try world.connect()) }
        let seed = SeededGenerator.seed()
        let socketPath = world.socketPath
        let results = Locked(Outcomes())
        let during = Locked([Double]())
        let done = Locked(false)
        let measuring = Thread {
            // Its own connection: the well-behaved client keeps one open, as widgetctl watch would.
            let measuringClient = try? ControlClient(path: socketPath)
            while !done.withLock({ $0 }) {
                let start = bootSeconds()
                guard let reply = try? measuringClient?.raw(status, timeout: 10), reply.error == nil else {
                    during.withLock { $0.append(.infinity) }
                    continue
                }
                during.withLock { $0.append(bootSeconds() - start) }
                Thread.sleep(forTimeInterval: 0.005)
            }
        }
        let floodStart = bootSeconds()
        measuring.start()
        DispatchQueue.concurrentPerform(iterations: Self.workers) { worker in
            var random = SeededGenerator(seed: seed &+ UInt64(worker))
            var outcomes = Outcomes()
            var connection = try? RawVarlinkConnection(path: socketPath)
            for family in Family.allCases {
                for index in stride(from: worker, to: family.count, by: Self.workers) {
                    let bytes = Self.message(family, index, using: &random)
                    if connection == nil { connection = try? RawVarlinkConnection(path: socketPath) }
                    guard let current = connection else {
                        outcomes.silent.append("\(family.rawValue) #\(index): cannot connect")
                        continue
                    }
                    let reply = current.send(bytes + [0]) ? current.receive(timeout: 10) : .closed
                    switch reply {
                    case .message where reply.errorName != nil:
                        outcomes.errors += 1
                        let name = reply.errorName?.split(separator: ".").last.map(String.init) ?? ""
                        outcomes.errorNames[name, default: 0] += 1
                    case .message(let text):
                        outcomes.answered.append("\(family.rawValue) #\(index): \(text.prefix(200))")
                    case .closed:
                        outcomes.closes += 1
                        connection = nil
                    case .silent:
                        outcomes.silent.append("\(family.rawValue) #\(index): \(bytes.prefix(80))")
                        connection = nil
                    }
                }
            }
            let finished = outcomes
            results.withLock { $0.merge(finished) }
        }
        let floodSeconds = bootSeconds() - floodStart
        done.withLock { $0 = true }
        while measuring.isExecuting { Thread.sleep(forTimeInterval: 0.01) }
        let idleStillOpen = idle.filter { $0.receive(timeout: 0) == .silent }.count
        idle.removeAll()
        let after = try latencies(200)

        let outcomes = results.withLock { $0 }
        let total = Family.allCases.map(\.count).reduce(0, +)
        let duringLatencies = during.withLock { $0 }
        #expect(total == 10_000)
        #expect(outcomes.errors + outcomes.closes + outcomes.answered.count + outcomes.silent.count == total)
        let names = outcomes.errorNames.sorted { $0.value > $1.value }.map { "\($0.key) \($0.value)" }
        #expect(outcomes.silent.isEmpty, "messages without a reply or a close: \(outcomes.silent.prefix(5))")
        #expect(outcomes.answered.isEmpty, "malformed messages answered as if valid: \(outcomes.answered.prefix(5))")
        #expect(world.isRunning, "the daemon stays up")
        #expect(idleStillOpen == Self.idleConnections, "idle connections are kept, not dropped")
        #expect(!duringLatencies.contains(.infinity), "the good client was refused during the flood")
        // A generous bound only: timing on a shared 2-core machine is noisy; the figures are the measurement.
        #expect(median(after) < max(10 * median(before), 0.05))
        #expect(median(duringLatencies) < max(50 * median(before), 0.25))
        func milliseconds(_ value: Double) -> String { String(format: "%.2f ms", value * 1000) }
        print("R3: \(total) malformed messages (seed \(seed)) in " + String(format: "%.1f s", floodSeconds)
              + " with \(Self.idleConnections) idle connections, daemon at RLIMIT_NOFILE 1024: \(outcomes.errors) "
              + "errors (\(names.joined(separator: ", "))), \(outcomes.closes) clean closes, "
              + "\(outcomes.silent.count) silent; Status p50 before "
              + "\(milliseconds(median(before))), during \(milliseconds(median(duringLatencies))) "
              + "(\(duringLatencies.count) calls), after \(milliseconds(median(after)))")
    }
}
