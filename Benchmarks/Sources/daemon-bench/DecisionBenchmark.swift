import Foundation
import WidgetSchedulerCore

/// P2's micro-benchmark: one scheduling decision, `Scheduler.handle` of a reload of one widget among n restored
/// widgets with timelines, at each n of `--sizes`. The run the reload starts is finished (untimed) before the next
/// sample, so every sample is the same decision: the widget runs now.
enum DecisionBenchmark {
    static func run(_ options: BenchOptions) throws {
        let sizes = try options.string("sizes", "1000,10000,100000").split(separator: ",").compactMap { Int($0) }
        let samples = try options.int("samples", 20_000)
        for size in sizes {
            let result = measure(widgets: size, samples: samples)
            print(String(format: "decision widgets=%d p50_us=%.3f p99_us=%.3f mean_us=%.3f finish_p50_us=%.3f",
                         size, result.decide.at(0.5) * 1e6, result.decide.at(0.99) * 1e6, result.mean * 1e6,
                         result.finish.at(0.5) * 1e6))
        }
    }

    static func measure(widgets count: Int, samples: Int) -> (decide: Percentiles, finish: Percentiles, mean: Double) {
        var settings = SchedulerSettings()
        settings.maxConcurrentRuns = 2
        var scheduler = Scheduler(settings: settings)
        var now = Instant(monotonic: 1_000, wall: Date(timeIntervalSince1970: 1_800_000_000))
        let timeline = Timeline(
            entries: (0..<10).map {
                TimelineEntry(date: now.wall.addingTimeInterval(3_600 * Double($0 + 1)), content: #"{"text":"x"}"#)
            },
            policy: .never)
        for index in 0..<count {
            var schedule = WidgetSchedule(id: "w\(index + 1)", kind: "trivial",
                                          budget: RefreshBudget(fullAt: now.monotonic, settings: settings))
            schedule.timeline = TimelineOutline(timeline)
            scheduler.restore(schedule, at: now)
        }
        var generator = SystemRandomNumberGenerator()
        var decide: [Double] = []
        var finish: [Double] = []
        decide.reserveCapacity(samples)
        var total = 0.0
        for request in 1...samples {
            now = now.advanced(by: 0.001)
            let id = "w\(Int.random(in: 1...count, using: &generator))"
            let started = Clock.monotonic()
            let actions = scheduler.handle(.reloadRequested(.widgets([id]), foreground: true, request: request),
                                           at: now)
            let decided = Clock.monotonic() - started
            decide.append(decided)
            total += decided
            guard actions.contains(where: { if case .startRun = $0 { return true } else { return false } }) else {
                continue
            }
            let finishing = Clock.monotonic()
            _ = scheduler.handle(.runFinished(id: id, outcome: .success(timeline)), at: now)
            finish.append(Clock.monotonic() - finishing)
        }
        return (Percentiles(decide), Percentiles(finish), total / Double(samples))
    }
}
