// The runner side of the runner benchmark: RUNS runs of one provider through ProviderRunner on a PollEventLoop,
// WORKERS in flight at a time on the one loop thread, as the daemon runs them.
//
// usage: runner-bench PROVIDER REQUEST_FILE RUNS WORKERS
// Prints "runs=N seconds=S rate=R parent_cpu_us_per_run=C children_cpu_us_per_run=P", like spawn-loop, so runner.sh
// can compare the two.
// RUNNER_SANDBOX=1 spawns through a ProviderSandbox (Landlock, its default writable paths), as the daemon does.
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

/// Keeps `workers` runs in flight until `total` have completed.
final class Driver {
    let spec: ProcessSpec
    let runner: ProviderRunner
    let total: Int
    var started = 0
    var finished = 0

    init(spec: ProcessSpec, runner: ProviderRunner, total: Int) {
        self.spec = spec
        self.runner = runner
        self.total = total
    }

    func startNext() {
        guard started < total else { return }
        started += 1
        runner.start(spec) { [self] result in
            guard result.succeeded, !result.stdout.isEmpty else {
                let failure = result.failure.map(String.init(describing:)) ?? "empty answer"
                FileHandle.standardError.write(Data("runner-bench: run failed: \(failure)\n".utf8))
                exit(1)
            }
            finished += 1
            startNext()
        }
    }
}

let sandbox: ProviderSandbox?
if ProcessInfo.processInfo.environment["RUNNER_SANDBOX"] == "1" {
    do {
        sandbox = try ProviderSandbox()
    } catch {
        FileHandle.standardError.write(Data("runner-bench: no sandbox: \(error)\n".utf8))
        exit(1)
    }
} else {
    sandbox = nil
}

let total = runs / workers * workers
let loop = PollEventLoop()
let driver = Driver(
    spec: ProcessSpec(argv: [arguments[1]], stdin: Array(request)),
    runner: ProviderRunner(loop: loop, sandbox: sandbox), total: total
)
var startTime = timespec()
clock_gettime(CLOCK_MONOTONIC, &startTime)
for _ in 0..<workers { driver.startNext() }
loop.run { driver.finished == total }
var endTime = timespec()
clock_gettime(CLOCK_MONOTONIC, &endTime)
let seconds = Double(endTime.tv_sec - startTime.tv_sec) + Double(endTime.tv_nsec - startTime.tv_nsec) / 1e9
var usage = rusage()
getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
    + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
var children = rusage()
getrusage(Int32(RUSAGE_CHILDREN.rawValue), &children)
let childrenCPU = Double(children.ru_utime.tv_sec + children.ru_stime.tv_sec)
    + Double(children.ru_utime.tv_usec + children.ru_stime.tv_usec) / 1e6
print(
    String(
        format: "runs=%d seconds=%.3f rate=%.1f parent_cpu_us_per_run=%.1f children_cpu_us_per_run=%.1f", total,
        seconds, Double(total) / seconds, cpu * 1e6 / Double(total), childrenCPU * 1e6 / Double(total)
    )
)
