// daemon-bench: the measurements of Benchmarks/suite.sh that need a program (issue 7, P1-P5).
//
//   daemon-bench populate --dir STATE --providers DIR [--kind K --widgets N --entries N --first S --spacing S
//                         --stagger S --after S]          write a state directory of N widgets with timelines
//   daemon-bench start --log FILE [--timeout S] -- DAEMON ARGS...   start the daemon, time exec to READY=1, RSS
//   daemon-bench runs --socket PATH [--warmup S --seconds S --batch S]   provider runs finished per second (Watch)
//   daemon-bench entries --socket PATH [--expect N --timeout S]      lateness of entryChanged events (Watch)
//   daemon-bench reload --socket PATH --kind K [--calls N --warmup N --pause S]   Reload round trips
//   daemon-bench list --socket PATH [--calls N --warmup N --pause S]   List round trips
//   daemon-bench decision [--sizes 1000,10000,100000 --samples N]    one Scheduler.handle of a reload
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    guard let mode = arguments.first else { throw BenchError("usage: daemon-bench MODE [options]; see main.swift") }
    let rest = arguments.dropFirst()
    // Each mode with the options it takes (the usage above); any other option is an error.
    let modes: [String: (options: Set<String>, run: (BenchOptions) throws -> Void)] = [
        "populate": (["dir", "providers", "kind", "widgets", "entries", "first", "spacing", "stagger", "after"],
                     Populate.run),
        "runs": (["socket", "warmup", "seconds", "batch"], ControlMeasurements.runs),
        "entries": (["socket", "expect", "timeout"], ControlMeasurements.entries),
        "reload": (["socket", "kind", "calls", "warmup", "pause"], ControlMeasurements.reload),
        "list": (["socket", "calls", "warmup", "pause"], ControlMeasurements.list),
        "decision": (["sizes", "samples"], DecisionBenchmark.run),
    ]
    if mode == "start" {
        try DaemonStart.run(Array(rest))
    } else if let selected = modes[mode] {
        try selected.run(try BenchOptions(rest, accepting: selected.options))
    } else {
        throw BenchError("unknown mode \(mode)")
    }
} catch {
    FileHandle.standardError.write(Data("daemon-bench: \(error)\n".utf8))
    exit(1)
}
