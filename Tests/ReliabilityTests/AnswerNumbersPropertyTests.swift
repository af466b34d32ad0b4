import Foundation
import Testing
import WidgetControl
import WidgetProtocol
import WidgetProviders
import WidgetSchedulerCore
import WidgetSchedulerRuntime
import WidgetSchedulerTestKit

/// Provider answers full of numbers from anywhere (dates of any year and offset, leap seconds, scores and durations
/// from 0 to 1e300), decoded as the runner decodes them, then through the daemon's service into a real SQLite store,
/// read back by a restarted service, and out through every query (`List`, `Status`, `Timeline`, `Budget`, `Stack`,
/// `Watch`) encoded as the daemon encodes its replies, decoded as `widgetctl` decodes them and rendered as it renders
/// them. Nothing may trap on the way, and the decoder may keep no number outside `SupportedRange`.
@Suite("Answers with any numbers, decoded, stored, queried and rendered")
struct AnswerNumbersPropertyTests {
    static let manifest = ProviderManifest(
        path: "/etc/widget-scheduler/providers/numbers.toml", exec: ["/usr/lib/widget-providers/numbers"],
        widgets: [WidgetKindManifest(kind: "numbers")])
    static let settings = SchedulerSettings(minimumInterval: 0, dailyBudget: 1e6, burstBudget: 1e6,
                                            maxConcurrentRuns: 8)

    /// Numbers a provider might write, the supported bounds and just past them among them.
    static let numbers: [String] = [
        "0", "-0", "1", "-1", "0.5", "1e-300", "3.4e38", "-3.4e38", "3.5e38", "1e17", "-1e17", "1e300", "-1e300",
        "253402300799.999", "253402300800", "9007199254740993", "9223372036854775807", "9223372036854775808",
        "18446744073709551616", "1e19", "123456789.987654321",
    ]

    @Test("no trap from answer to rendered reply, and only supported numbers are kept", arguments: [1, 2, 3])
    func anyNumbersFlowWithoutTrapping(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let world = try World()
        defer { world.remove() }
        var service = try world.makeService()
        var ids: [String] = []
        for _ in 0..<6 {
            var added: Result<String, ControlError>?
            service.add(kind: "numbers", family: nil, parameters: [:]) { added = $0 }
            ids.append(try #require(added).get())
        }
        var accepted = 0
        var refused = 0
        for round in 0..<60 {
            for launch in world.launcher.inFlight {
                let answer = Self.answer(&random, now: world.clock.now().wall)
                switch ProviderAnswerDecoder.answer(to: .timeline, from: Array(answer.utf8), maxEntries: 16) {
                case .success(.timeline(let timeline)):
                    accepted += 1
                    Self.expectSupported(timeline, answer)
                    launch.succeed(timeline)
                case .success(let other):
                    Issue.record("a timeline request decoded to \(other)")
                case .failure(let error):
                    refused += 1
                    launch.fail(error.reason, detail: error.description)
                }
            }
            // Time moves by up to a year, now and then by 8 000 years, and the wall clock jumps now and then.
            let step = Double.random(in: 0...(round % 17 == 16 ? 2.5e11 : 3e7), using: &random)
            world.clock.clock.advance(by: step)
            if round % 5 == 4 { world.clock.clock.jumpWall(by: Double.random(in: -3e8...3e8, using: &random)) }
            service.tick()
            _ = try? service.reload(.all, foreground: true)
            try Self.queryAndRender(service, ids: ids, world: world)
            if round % 10 == 9 {
                // A restart: everything written, then a new service reads it all back from SQLite.
                service.flush()
                service = try world.makeService()
                try Self.queryAndRender(service, ids: ids, world: world)
            }
        }
        #expect(accepted > 20, "accepted \(accepted), refused \(refused)")
        #expect(refused > 20, "accepted \(accepted), refused \(refused)")
        #expect(world.renderedEvents > 0)
    }

    // MARK: - Answers

    static func answer(_ random: inout SeededGenerator, now: Date) -> String {
        let count = Int.random(in: 1...4, using: &random)
        let entries = (0..<count).map { _ -> String in
            var entry = #"{"date":"\#(date(&random, now: now))","content":{"n":\#(number(&random))}"#
            if Bool.random(using: &random) {
                entry += #","relevance":{"score":\#(number(&random))"#
                if Bool.random(using: &random) { entry += #","duration":\#(number(&random))"# }
                entry += "}"
            }
            return entry + "}"
        }
        let policy: String
        switch Int.random(in: 0..<3, using: &random) {
        case 0: policy = #""atEnd""#
        case 1: policy = #""never""#
        default: policy = #"{"after":"\#(date(&random, now: now))"}"#
        }
        return #"{"entries":[\#(entries.joined(separator: ","))],"policy":\#(policy)}"#
    }

    /// Mostly dates near now; else any year, offset and second (leap seconds too) RFC 3339 can write.
    static func date(_ random: inout SeededGenerator, now: Date) -> String {
        if Int.random(in: 0..<3, using: &random) > 0 {
            let offset = Double.random(in: -1e6...1e6, using: &random)
            return RFC3339.string(from: SupportedRange.clamped(now.addingTimeInterval(offset)))
        }
        let year = [0, 1, 1969, 1970, 2026, 9999][Int.random(in: 0..<6, using: &random)]
        let month = Int.random(in: 1...12, using: &random)
        let day = Int.random(in: 1...28, using: &random)
        let second = [0, 59, 60][Int.random(in: 0..<3, using: &random)]
        let zone = ["Z", "+23:59", "-23:59", "+00:00", ".999Z"][Int.random(in: 0..<5, using: &random)]
        func pad(_ value: Int, _ width: Int) -> String {
            String(repeating: "0", count: max(0, width - String(value).count)) + String(value)
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T23:59:\(pad(second, 2))\(zone)"
    }

    static func number(_ random: inout SeededGenerator) -> String {
        if Bool.random(using: &random) { return numbers[Int.random(in: 0..<numbers.count, using: &random)] }
        return String(Double.random(in: -1e6...1e6, using: &random))
    }

    static func expectSupported(_ timeline: Timeline, _ answer: String) {
        for entry in timeline.entries {
            #expect(SupportedRange.contains(date: entry.date), "\(answer)")
            if let relevance = entry.relevance {
                #expect(SupportedRange.contains(score: relevance.score), "\(answer)")
                #expect(SupportedRange.contains(duration: relevance.duration), "\(answer)")
            }
        }
        if case .after(let date) = timeline.policy { #expect(SupportedRange.contains(date: date), "\(answer)") }
    }

    // MARK: - Queries, as the daemon encodes them and widgetctl renders them

    static func queryAndRender(_ service: WidgetService, ids: [String], world: World) throws {
        let renderer = world.renderer
        _ = renderer.list(try decode(ListMethod.Reply.self, .message(capacity: service.listCapacityEstimate) {
            service.writeList(into: &$0)
        }).widgets)
        _ = renderer.list(try decode(ListMethod.Reply.self, .reply(ListMethod.Reply(widgets: service.list())))
            .widgets)
        _ = renderer.status(try decode(StatusMethod.Reply.self, .reply(service.status(version: "test"))))
        for id in ids {
            _ = renderer.timeline(try decode(TimelineMethod.Reply.self, .reply(try service.timeline(id: id))))
        }
        _ = renderer.budget(try decode(BudgetMethod.Reply.self, .reply(BudgetMethod.Reply(
            ledgers: try service.budget(id: nil, kind: nil)))).ledgers)
        _ = renderer.stack(try decode(StackMethod.Reply.self, .reply(StackMethod.Reply(
            stack: try service.stack(ids: nil)))).stack)
    }

    /// The reply's parameters object as the daemon sends it, decoded as `widgetctl` decodes it.
    static func decode<Reply: Decodable>(_ type: Reply.Type, _ response: VarlinkResponse) throws -> Reply {
        let parameters: [UInt8]
        switch response {
        case .message(let bytes):
            // {"parameters":OBJECT}\0
            parameters = Array(bytes.dropFirst(#"{"parameters":"#.utf8.count).dropLast(2))
        case .encoded(let bytes):
            parameters = bytes
        case .reply(let object):
            parameters = try VarlinkCoding.encode(JSONValue.object(object))
        case .error(let error):
            throw error
        case .pending:
            throw TestFailure("a query answered later")
        }
        return try VarlinkCoding.makeDecoder().decode(Reply.self, from: Data(parameters))
    }

    // MARK: - The world

    final class World {
        let directory: URL
        let clock = ManualDaemonClock()
        let launcher = FakeProviderLauncher()
        let timer = FakeWakeupTimer()
        let renderer: ControlRenderer
        private(set) var renderedEvents = 0
        private var store: StateStore?

        init() throws {
            directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("answer-numbers-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            renderer = ControlRenderer(time: TimeText(now: clock.now().wall,
                                                      timeZone: TimeZone(identifier: "UTC") ?? .current))
        }

        /// A service on a freshly opened store of the same file, loaded, with a watcher rendering every event.
        func makeService() throws -> WidgetService {
            try store?.close()
            let store = try StateStore(path: directory.appendingPathComponent("state.sqlite").path)
            self.store = store
            let service = WidgetService(
                options: WidgetService.Options(stateDirectory: directory, socketPath: "/run/test.socket"),
                settings: AnswerNumbersPropertyTests.settings,
                manifests: ManifestSet(manifests: [AnswerNumbersPropertyTests.manifest]), clock: clock,
                launcher: launcher, timer: timer, store: store, logger: RecordingLogHandler.logger(.init()))
            try service.load()
            _ = service.watch(WatchMethod.Parameters()) { [self] event in
                guard let decoded = try? AnswerNumbersPropertyTests.decode(WatchEvent.self, .reply(event)) else {
                    Issue.record("a watch event does not round-trip: \(event)")
                    return true
                }
                _ = renderer.watchEvent(decoded)
                renderedEvents += 1
                return true
            }
            return service
        }

        func remove() {
            try? store?.close()
            try? FileManager.default.removeItem(at: directory)
        }
    }
}
