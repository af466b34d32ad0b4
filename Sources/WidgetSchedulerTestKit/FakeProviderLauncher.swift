import WidgetProtocol
import WidgetProviders
import WidgetSchedulerCore
import WidgetSchedulerRuntime

/// A `ProviderLauncher` that starts nothing: it records each launch, and the test completes it with any result.
public final class FakeProviderLauncher: ProviderLauncher {
    /// One recorded launch.
    public final class Launch: ProviderRunHandle {
        public let invocation: ProviderInvocation
        public let pid: Int32
        public private(set) var terminated = false
        public private(set) var completed = false
        fileprivate let completion: (ProviderRunResult, ProviderRunStats) -> Void

        init(invocation: ProviderInvocation, pid: Int32,
             completion: @escaping (ProviderRunResult, ProviderRunStats) -> Void) {
            self.invocation = invocation
            self.pid = pid
            self.completion = completion
        }

        public func terminate() { terminated = true }
        /// Calls `body` at once, as for a run that lasts, unless the launch was made with `quickRuns` set.
        public func whenLasting(_ body: @escaping (Int32) -> Void) {
            if !isQuick { body(pid) }
        }
        fileprivate var isQuick = false

        /// Finishes the run with `result`, as the event loop would.
        public func complete(_ result: ProviderRunResult, duration: Double = 0.01) {
            guard !completed else { return }
            completed = true
            completion(result, ProviderRunStats(pid: pid, exitStatus: "exited with status 0", duration: duration))
        }

        /// Finishes a timeline run successfully.
        public func succeed(_ timeline: Timeline) {
            complete(.success(.timeline(timeline), stderrTail: ""))
        }

        /// Finishes the run with a failure of `reason`.
        public func fail(_ reason: RunFailureReason = .exit, detail: String = "exit status 1") {
            complete(.failure(ProviderRunFailure(reason: reason, detail: detail, stderrTail: "")))
        }
    }

    public private(set) var launches: [Launch] = []
    private var nextPID: Int32 = 1000
    /// While set, launches are quick runs: they end (whenever the test completes them) without ever lasting, so
    /// their `whenLasting` handlers are never called.
    public var quickRuns = false

    public init() {}

    /// Launches not completed yet.
    public var inFlight: [Launch] { launches.filter { !$0.completed } }

    public func launch(
        _ invocation: ProviderInvocation, completion: @escaping (ProviderRunResult, ProviderRunStats) -> Void
    ) -> ProviderRunHandle {
        nextPID += 1
        let launch = Launch(invocation: invocation, pid: nextPID, completion: completion)
        launch.isQuick = quickRuns
        launches.append(launch)
        return launch
    }
}
