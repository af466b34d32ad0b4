// The runner side of the runner benchmark: RUNS runs of one provider through ProviderRunner on a PollEventLoop,
// WORKERS in flight at a time on the one loop thread, as the daemon runs them.
//
// usage: runner-bench PROVIDER REQUEST_FILE RUNS WORKERS
// Prints "runs=N seconds=S rate=R", like spawn-loop, so run.sh can compare the two.
import Foundation
import WidgetProviders

#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments
guard arguments.count == 5, let runs = Int(arguments[3]), let workers = Int(arguments[4]), runs > 0, workers > 0,
    let request = FileManager.default.contents(atPath: arguments[2])
else {
    FileHandle.standardError.write(Data("usage: runner-bench PROVIDER REQUEST_FILE RUNS WORKERS\n".utf8))
    exit(64)
}

let total = runs / workers * workers
let spec = ProcessSpec(argv: [arguments[1]], stdin: Array(request))
let loop = PollEventLoop()
let runner = ProviderRunner(loop: loop)
var started = 0
var finished = 0

func startNext() {
    guard started < total else { return }
    started += 1
    runner.start(spec) { result in
        guard result.succeeded, !result.stdout.isEmpty else {
            FileHandle.standardError.write(Data("runner-bench: run failed: \(String(describing: result.failure))\n".utf8))
            exit(1)
        }
        finished += 1
        startNext()
    }
}

var startTime = timespec()
clock_gettime(CLOCK_MONOTONIC, &startTime)
for _ in 0..<workers { startNext() }
loop.run { finished == total }
var endTime = timespec()
clock_gettime(CLOCK_MONOTONIC, &endTime)
let seconds = Double(endTime.tv_sec - startTime.tv_sec) + Double(endTime.tv_nsec - startTime.tv_nsec) / 1e9
print(String(format: "runs=%d seconds=%.3f rate=%.1f", total, seconds, Double(total) / seconds))
