// state-bench: measures the state store at daemon scale (issue 7, P1/P2) and its behaviour under kill -9 (issue 8, R2).
//
//   state-bench [--widgets N] [--commits N] [--kills N] [--dir PATH]
//       populate N widgets with ~10-entry timelines, then in fresh child processes: cold load (time, RSS),
//       batch write throughput, and N kill -9 rounds of a writing child.
//   state-bench load --dir PATH [--timelines yes|no|stream]   one cold load, prints time and memory
//   state-bench write --dir PATH --commits N [--durability normal|full] [--checkpoint auto|idle|background]
//                     [--per-commit N]
//       each commit upserts a timeline and a schedule and appends a history line for --per-commit widgets;
//       --checkpoint idle turns automatic checkpoints off and checkpoints every 1000 commits, timed apart;
//       --checkpoint background checkpoints on the store's checkpoint thread every 100 commits
//   state-bench crash-writer --dir PATH    writes batches forever, printing each committed turn on stdout
import Foundation
import Glibc
import WidgetSchedulerRuntime

struct BenchArguments {
    var mode = "all"
    var widgets = 100_000
    var commits = 20_000
    var kills = 50
    var durability = "normal"
    var timelines = "yes"
    var checkpoint = "auto"
    var perCommit = 1
    var directory: String?

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        if let first = rest.first, !first.hasPrefix("--") {
            mode = first
            rest = rest.dropFirst()
        }
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { throw BenchError("\(flag) needs a value") }
            switch flag {
            case "--widgets": widgets = try Self.count(value, flag)
            case "--commits": commits = try Self.count(value, flag)
            case "--kills": kills = try Self.count(value, flag)
            case "--durability": durability = value
            case "--timelines": timelines = value
            case "--checkpoint": checkpoint = value
            case "--per-commit": perCommit = try Self.count(value, flag)
            case "--dir": directory = value
            default: throw BenchError("unknown option \(flag)")
            }
        }
    }

    private static func count(_ text: String, _ flag: String) throws -> Int {
        guard let value = Int(text), value > 0 else {
            throw BenchError("\(flag) needs a positive integer, got \(text)")
        }
        return value
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

func now() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

func cpuTime() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

/// VmRSS, VmHWM (peak RSS) in MiB and the thread count, from /proc/self/status.
func memory() -> (rss: Double, peak: Double, threads: Int) {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    func field(_ name: String) -> Double {
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return 0 }
        return Double(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "0") ?? 0
    }
    return (field("VmRSS") / 1024, field("VmHWM") / 1024, Int(field("Threads")))
}

func timelineJSON(_ widget: Int, generation: Int) -> String {
    var entries: [String] = []
    for index in 0..<10 {
        entries.append(
            #"{"date":"2026-11-22T\#(10 + index):\#(widget % 60 < 10 ? "0" : "")\#(widget % 60):00Z","#
                + #""relevance":{"score":\#(index % 3)},"content":{"temperature":\#(generation % 40),"#
                + #""condition":"partly cloudy","city":"Paris","humidity":\#(40 + index)}}"#)
    }
    return #"{"entries":["# + entries.joined(separator: ",") + #"],"policy":{"atEnd":{}}}"#
}

func scheduleState(_ widget: Int, generation: Int) -> Data {
    Data(
        (#"{"tokens":\#(72 - generation % 72).25,"refilledAt":812345.5,"lastRunStart":812000.25,"#
            + #""consecutiveFailures":0,"backoffUntil":null,"quarantined":false,"pending":null}"#).utf8)
}

func populate(_ store: StateStore, widgets: Int) throws -> Double {
    let start = now()
    let added = Date()
    var batch = StateBatch()
    for index in 0..<widgets {
        let id = "kind\(index % 50)/w\(index)"
        batch.upsertWidget(
            WidgetRecord(
                id: id, kind: "kind\(index % 50)", family: "systemSmall",
                configuration: #"{"city":"Paris","units":"metric","station":"\#(index)"}"#, addedAt: added))
        batch.upsertSchedule(
            WidgetScheduleRecord(
                widgetID: id, state: scheduleState(index, generation: 0), nextDue: added.addingTimeInterval(900),
                quarantined: false))
        batch.upsertTimeline(
            TimelineRecord(widgetID: id, timeline: timelineJSON(index, generation: 0), receivedAt: added,
                currentEntryIndex: 0))
        if index % 1000 == 999 {
            try store.apply(batch)
            batch = StateBatch()
        }
    }
    try store.apply(batch)
    return now() - start
}

func load(directory: URL, timelines: String) throws {
    if timelines == "stream" {
        return try stream(directory: directory)
    }
    let includingTimelines = timelines != "no"
    let before = memory()
    let start = now()
    let store = try StateStore(directory: directory)
    let state = try store.loadAll(includingTimelines: includingTimelines)
    let elapsed = now() - start
    let after = memory()
    let timelineBytes = state.widgets.reduce(0) { $0 + ($1.timeline?.timeline.utf8.count ?? 0) }
    print(
        "load (timelines \(includingTimelines ? "included" : "left in the database")): "
            + "\(state.widgets.count) widgets in \(String(format: "%.3f", elapsed)) s; "
            + "RSS \(String(format: "%.1f", before.rss)) -> \(String(format: "%.1f", after.rss)) MiB "
            + "(peak \(String(format: "%.1f", after.peak)) MiB); timeline text \(timelineBytes / 1_048_576) MiB; "
            + "threads \(after.threads)")
    withExtendedLifetime(state) {}
}

func write(directory: URL, arguments: BenchArguments) throws {
    let idleCheckpoints = arguments.checkpoint == "idle"
    let store = try StateStore(
        directory: directory,
        options: StateStoreOptions(
            durability: arguments.durability == "full" ? .powerLoss : .processCrash,
            walAutoCheckpointPages: idleCheckpoints ? 0 : 1000,
            backgroundCheckpointEveryCommits: arguments.checkpoint == "background" ? 100 : nil))
    let ids = try store.loadAll(includingTimelines: false).widgets.map(\.widget.id)
    guard !ids.isEmpty else { throw BenchError("no widgets in \(directory.path); populate first") }
    var latencies: [Double] = []
    var checkpoints: [Double] = []
    latencies.reserveCapacity(arguments.commits)
    let start = now()
    let cpuStart = cpuTime()
    for turn in 0..<arguments.commits {
        let stamp = Date()
        var batch = StateBatch()
        for slot in 0..<arguments.perCommit {
            let id = ids[((turn * arguments.perCommit + slot) * 7919) % ids.count]
            batch.upsertTimeline(
                TimelineRecord(widgetID: id, timeline: timelineJSON(turn, generation: turn), receivedAt: stamp,
                    currentEntryIndex: 0))
            batch.upsertSchedule(
                WidgetScheduleRecord(
                    widgetID: id, state: scheduleState(turn, generation: turn),
                    nextDue: stamp.addingTimeInterval(900), quarantined: false))
            batch.appendHistory(
                HistoryRecord(widgetID: id, at: stamp, monotonic: now(), event: .run, reason: "policy",
                    outcome: "success"))
        }
        let applyStart = now()
        try store.apply(batch)
        latencies.append(now() - applyStart)
        if idleCheckpoints && turn % 1000 == 999 {
            let checkpointStart = now()
            try store.checkpoint()
            checkpoints.append(now() - checkpointStart)
        }
    }
    let elapsed = now() - start
    let cpuPerCommit = (cpuTime() - cpuStart) / Double(arguments.commits)
    func percentile(_ values: [Double], _ p: Double) -> String {
        let sorted = values.sorted()
        return String(format: "%.0f", sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] * 1e6)
    }
    var line =
        "write (synchronous=\(arguments.durability == "full" ? "FULL" : "NORMAL"), "
        + "checkpoint \(arguments.checkpoint), \(arguments.perCommit) widget(s) per commit): "
        + "\(arguments.commits) commits in \(String(format: "%.2f", elapsed)) s = "
        + "\(Int(Double(arguments.commits) / elapsed)) commits/s, CPU \(Int(cpuPerCommit * 1e6)) us/commit; "
        + "apply p50 \(percentile(latencies, 0.5)) us, "
        + "p99 \(percentile(latencies, 0.99)) us, p99.9 \(percentile(latencies, 0.999)) us, "
        + "max \(percentile(latencies, 1)) us"
    if !checkpoints.isEmpty {
        line += "; \(checkpoints.count) checkpoints p50 \(percentile(checkpoints, 0.5)) us, "
            + "max \(percentile(checkpoints, 1)) us"
    }
    if let status = store.backgroundCheckpointStatus {
        line += "; \(status.completed) background checkpoints\(status.lastFailure.map { ", failure: \($0)" } ?? "")"
    }
    print(line + "; threads \(memory().threads)")
}

/// Streams every widget with its timeline, keeping only each timeline's length, as a daemon that turns rows into
/// its own state one at a time would.
func stream(directory: URL) throws {
    let before = memory()
    let start = now()
    let store = try StateStore(directory: directory)
    var count = 0
    var timelineBytes = 0
    try store.forEachStoredWidget { stored in
        count += 1
        timelineBytes += stored.timeline?.timeline.utf8.count ?? 0
    }
    let elapsed = now() - start
    let after = memory()
    print(
        "load (timelines streamed, nothing kept): \(count) widgets in \(String(format: "%.3f", elapsed)) s; "
            + "RSS \(String(format: "%.1f", before.rss)) -> \(String(format: "%.1f", after.rss)) MiB "
            + "(peak \(String(format: "%.1f", after.peak)) MiB); timeline text \(timelineBytes / 1_048_576) MiB read")
}

/// Writes one batch per turn, each spending a "token" (the meta turn counter) and touching a widget, and prints the
/// turn only after apply returned: a turn printed is a turn committed.
func crashWriter(directory: URL) throws -> Never {
    let store = try StateStore(directory: directory)
    let ids = try store.loadAll().widgets.map(\.widget.id)
    var turn = Int(try store.meta("turn") ?? "0") ?? 0
    while true {
        turn += 1
        let id = ids[turn % ids.count]
        var batch = StateBatch()
        batch.upsertSchedule(
            WidgetScheduleRecord(widgetID: id, state: Data("turn=\(turn)".utf8), nextDue: nil, quarantined: false))
        batch.upsertTimeline(
            TimelineRecord(widgetID: id, timeline: timelineJSON(turn, generation: turn), receivedAt: Date(),
                currentEntryIndex: turn % 10))
        batch.appendHistory(
            HistoryRecord(widgetID: id, at: Date(), monotonic: now(), event: .run, reason: "policy",
                outcome: "success"))
        batch.setMeta("turn", "\(turn)")
        try store.apply(batch)
        let line = Array("\(turn)\n".utf8)
        guard Glibc.write(STDOUT_FILENO, line, line.count) == line.count else { exit(0) }
    }
}

func runChild(_ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw BenchError("child \(arguments) failed") }
    return String(decoding: output, as: UTF8.self)
}

/// Starts a crash-writer child, lets it commit for a random 20-200 ms, kills it with SIGKILL, then checks that the
/// database is sound and holds at least every turn the child reported as committed.
func killRounds(directory: URL, rounds: Int, widgetCount: Int) throws {
    var totalTurns = 0
    for round in 1...rounds {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        process.arguments = ["crash-writer", "--dir", directory.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        usleep(UInt32.random(in: 20_000...200_000))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let acknowledged = output.split(separator: "\n").compactMap { Int($0) }.last ?? 0

        let store = try StateStore(directory: directory)
        let integrity = try store.integrityCheck()
        let state = try store.loadAll()
        let stored = Int(state.meta["turn"] ?? "0") ?? 0
        try store.close()
        guard integrity == "ok" else { throw BenchError("round \(round): integrity_check said \(integrity)") }
        guard stored >= acknowledged else {
            throw BenchError("round \(round): child acknowledged turn \(acknowledged) but the store holds \(stored)")
        }
        guard state.widgets.count == widgetCount else {
            throw BenchError("round \(round): \(state.widgets.count) widgets, expected \(widgetCount)")
        }
        totalTurns = stored
    }
    print(
        "kill -9: \(rounds) rounds, integrity ok every time, no acknowledged commit lost, "
            + "\(widgetCount) widgets kept, \(totalTurns) turns committed in all")
}

func main() throws {
    let arguments = try BenchArguments(Array(CommandLine.arguments.dropFirst()))
    let directory = URL(
        fileURLWithPath: arguments.directory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("state-bench-\(getpid())").path)
    switch arguments.mode {
    case "load":
        try load(directory: directory, timelines: arguments.timelines)
    case "write":
        try write(directory: directory, arguments: arguments)
    case "crash-writer":
        try crashWriter(directory: directory)
    case "all":
        try? FileManager.default.removeItem(at: directory)
        let store = try StateStore(directory: directory)
        let seconds = try populate(store, widgets: arguments.widgets)
        try store.close()
        let size = (try? FileManager.default.attributesOfItem(
            atPath: directory.appendingPathComponent(StateStore.fileName).path)[.size] as? Int) ?? 0
        print(
            "populate: \(arguments.widgets) widgets with 10-entry timelines in \(String(format: "%.2f", seconds)) s; "
                + "state.sqlite \(size / 1_048_576) MiB")
        for timelines in ["yes", "yes", "no", "stream"] {
            print(try runChild(["load", "--dir", directory.path, "--timelines", timelines]), terminator: "")
        }
        let commits = "\(arguments.commits)"
        let variants: [[String]] = [
            ["--commits", commits],
            ["--commits", commits, "--checkpoint", "idle"],
            ["--commits", commits, "--checkpoint", "background"],
            ["--commits", "\(max(1, arguments.commits / 10))", "--per-commit", "10"],
            ["--commits", "\(max(1, arguments.commits / 10))", "--durability", "full"],
        ]
        for variant in variants {
            print(try runChild(["write", "--dir", directory.path] + variant), terminator: "")
        }
        let crashDirectory = directory.appendingPathComponent("crash")
        let crashStore = try StateStore(directory: crashDirectory)
        _ = try populate(crashStore, widgets: 100)
        try crashStore.close()
        try killRounds(directory: crashDirectory, rounds: arguments.kills, widgetCount: 100)
        try? FileManager.default.removeItem(at: directory)
    default:
        throw BenchError("unknown mode \(arguments.mode); use all, load, write or crash-writer")
    }
}

do {
    try main()
} catch {
    FileHandle.standardError.write(Data("state-bench: \(error)\n".utf8))
    exit(1)
}
