import WidgetProviders

/// The real `ProviderLauncher`: a spawn through `ProviderRunner`.
public final class SpawningLauncher: ProviderLauncher {
    private let runner: ProviderRunner

    public init(runner: ProviderRunner) {
        self.runner = runner
    }

    public func launch(
        _ invocation: ProviderInvocation, completion: @escaping (ProviderRunResult, ProviderRunStats) -> Void
    ) -> ProviderRunHandle {
        let process = invocation.start(on: runner) { result, process in
            completion(result, ProviderRunStats(pid: process.pid, exitStatus: Self.describe(process.termination),
                                                duration: process.duration,
                                                limits: process.pid > 0 ? process.limits.rawValue : nil))
        }
        return Handle(process)
    }

    static func describe(_ termination: ProcessTermination?) -> String? {
        switch termination {
        // Nearly every run: a literal, not an interpolation per run.
        case .exited(0)?: return "exited with status 0"
        case .exited(let status)?: return "exited with status \(status)"
        case .signaled(let signal)?: return "killed by signal \(signal)"
        case nil: return nil
        }
    }

    private final class Handle: ProviderRunHandle {
        let process: RunningProcess
        init(_ process: RunningProcess) { self.process = process }
        var pid: Int32 { process.pid }
        func terminate() { process.cancel() }
        func whenLasting(_ body: @escaping (Int32) -> Void) { process.whenLasting(body) }
    }
}
