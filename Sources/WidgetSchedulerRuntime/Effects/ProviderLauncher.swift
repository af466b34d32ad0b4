import WidgetProviders

/// A provider run in flight.
public protocol ProviderRunHandle: AnyObject {
    /// The provider's process id (0 if it could not start).
    var pid: Int32 { get }
    /// Stops the run: its whole process group is killed, and its completion is still called once.
    func terminate()
    /// Calls `body` with the provider's pid if the run is still going once it has lasted a moment (25 ms for the
    /// real runner); once, before the completion; never for a run that ends sooner.
    func whenLasting(_ body: @escaping (Int32) -> Void)
}

/// Starts provider processes. The real one spawns through `ProviderRunner`; the test kit's fake records and completes
/// runs on command.
public protocol ProviderLauncher: AnyObject {
    /// Starts `invocation`; `completion` is called exactly once, later, on the event loop, with the interpreted
    /// result and the process's duration in seconds. A timeline's entry contents are in `JSONValue.jsonText()`'s
    /// form, as `ProviderAnswerDecoder` leaves them: watchers get them as they are.
    func launch(
        _ invocation: ProviderInvocation, completion: @escaping (ProviderRunResult, ProviderRunStats) -> Void
    ) -> ProviderRunHandle
}

/// Facts about a finished run for the log.
public struct ProviderRunStats: Sendable, Hashable {
    public var pid: Int32
    /// How the process ended, e.g. "exited with status 2" or "killed by SIGSEGV"; nil if it never started.
    public var exitStatus: String?
    public var duration: Double
    /// Which form of containment the run had (`RunLimits`' name: "cgroup", "cgroup-kill-only", "process"); nil when
    /// no process ran.
    public var limits: String?

    public init(pid: Int32, exitStatus: String?, duration: Double, limits: String? = nil) {
        self.pid = pid
        self.exitStatus = exitStatus
        self.duration = duration
        self.limits = limits
    }
}
