/// The outcome of one run, as a value: never thrown.
///
/// `failure` is `nil` exactly when the child exited 0 within its limits. A failure is classified in this order:
/// `spawn`, `timeout` (the runner terminated it), `output-too-large` (the runner killed it), then for a child that
/// exited non-zero or was killed by a signal: `memory` when there is evidence it hit its cap, else `exit` or `signal`.
///
/// Memory is capped with RLIMIT_DATA, so an allocation past the cap fails inside the child rather than the kernel
/// killing it; the child then dies in its own way. Evidence of that is either an out-of-memory message in the stderr
/// tail (`MemoryError`, `Cannot allocate memory`, `out of memory`, `bad_alloc`, `allocation failed`,
/// `OutOfMemoryError`, `could not allocate`, `memory allocation of`), or a SIGKILL the runner did not send with a
/// peak RSS of at least 90 % of the cap (the kernel's OOM killer). A run whose cgroup caps its memory as a whole is
/// killed whole by the kernel at the cap, which its cgroup counts (`memory.events`): that is the evidence there.
public struct ProcessResult: Sendable, Equatable {
    /// The child's process id (and so its process group id); 0 if it never started.
    public var pid: Int32
    /// Everything read from stdout (at most the spec's limit).
    public var stdout: [UInt8]
    /// The last bytes of stderr, as text (invalid UTF-8 replaced).
    public var stderrTail: String
    /// How the child ended; `nil` if it never started.
    public var termination: ProcessTermination?
    /// Why the run failed; `nil` on success.
    public var failure: ProcessFailure?
    /// Seconds from spawn to completion, on the monotonic clock.
    public var duration: Double
    /// Peak resident set size in bytes from the child's rusage, when it is surely the child's own: `nil` when the
    /// figure does not exceed the runner's own peak, which the child shared until its exec. For a run whose cgroup caps
    /// its memory, the peak of all its processes together (`memory.peak`).
    public var peakMemoryBytes: UInt64?
    /// Which form of containment the run had.
    public var limits: RunLimits

    /// Creates a result.
    public init(
        pid: Int32, stdout: [UInt8], stderrTail: String, termination: ProcessTermination?,
        failure: ProcessFailure?, duration: Double, peakMemoryBytes: UInt64?, limits: RunLimits = .process
    ) {
        self.pid = pid
        self.stdout = stdout
        self.stderrTail = stderrTail
        self.termination = termination
        self.failure = failure
        self.duration = duration
        self.peakMemoryBytes = peakMemoryBytes
        self.limits = limits
    }

    /// Whether the child exited 0 within its limits.
    public var succeeded: Bool { failure == nil }

    static let outOfMemoryPhrases = [
        "memoryerror", "cannot allocate memory", "out of memory", "bad_alloc", "allocation failed",
        "outofmemoryerror", "could not allocate", "memory allocation of",
    ]

    /// Whether a failed child's stderr tail says that an allocation failed.
    static func reportsOutOfMemory(_ stderrTail: String) -> Bool {
        let lowered = stderrTail.lowercased()
        return outOfMemoryPhrases.contains { lowered.contains($0) }
    }
}
