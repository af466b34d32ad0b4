// daemon-bench: the measurements of benchmarks/suite.sh that need a program (issue 7, P1-P5).
//
//   daemon-bench populate --dir STATE --providers DIR [--kind K --widgets N --entries N --first S --spacing S
//                         --stagger S --after S]          write a state directory of N widgets with timelines
//   daemon-bench start --log FILE [--timeout S] -- DAEMON ARGS...   start the daemon, time exec to READY=1, RSS
//   daemon-bench runs --socket PATH [--warmup S --seconds S --batch S]   provider runs finished per second (Watch)
//   daemon-bench entries --socket PATH [--expect N --timeout S]      lateness of entryChanged events (Watch)
//   daemon-bench reload --socket PATH --kind K [--calls N --warmup N --pause S]   Reload round trips
//   daemon-bench list --socket PATH [--calls N --warmup N]           List round trips
//   daemon-bench decision [--sizes 1000,10000,100000 --samples N]    one Scheduler.handle of a reload
//   daemon-bench log-line [--lines N --rounds N] 2> FILE             one run's journal line on stderr, and its parts
//   daemon-bench run-path [--runs N --rounds N]                      a run's request, spec, decoding, Watch events
//   daemon-bench service-path --dir STATE --providers DIR [--runs N --rounds N --flush-every N] 2> FILE
//                                                                    P1's runs through WidgetService, no processes
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    guard let mode = arguments.first else { throw BenchError("usage: daemon-bench MODE [options]; see main.swift") }
    let rest = arguments.dropFirst()
    switch mode {
    case "populate": try Populate.run(try BenchOptions(rest))
    case "start": try DaemonStart.run(Array(rest))
    case "runs": try ControlMeasurements.runs(try BenchOptions(rest))
    case "entries": try ControlMeasurements.entries(try BenchOptions(rest))
    case "reload": try ControlMeasurements.reload(try BenchOptions(rest))
    case "list": try ControlMeasurements.list(try BenchOptions(rest))
    case "decision": try DecisionBenchmark.run(try BenchOptions(rest))
    case "log-line": try LogLineBenchmark.run(try BenchOptions(rest))
    case "run-path": try RunPathBenchmark.run(try BenchOptions(rest))
    case "service-path": try ServicePathBenchmark.run(try BenchOptions(rest))
    default: throw BenchError("unknown mode \(mode)")
    }
} catch {
    FileHandle.standardError.write(Data("daemon-bench: \(error)\n".utf8))
    exit(1)
}
