/// What to run and within which limits: the input of `ProviderRunner.start`.
public struct ProcessSpec: Sendable, Equatable {
    /// The environment every provider gets, and nothing else unless a spec adds it:
    /// `PATH` (the system directories), `LANG=C.UTF-8` and `WIDGET_SCHEDULER_PROTOCOL=1`.
    public static let minimalEnvironment: [String: String] = [
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "WIDGET_SCHEDULER_PROTOCOL": "1",
    ]

    /// The program and its arguments. A first element without a slash is looked up in the environment's `PATH`;
    /// a relative one is resolved against `workingDirectory`.
    public var argv: [String]
    /// The complete environment of the child.
    public var environment: [String: String]
    /// The child's working directory; `nil` keeps the runner's.
    public var workingDirectory: String?
    /// Written to the child's stdin, which is then closed. Larger than a pipe's buffer (64 KiB) is allowed up to
    /// the system's maximum pipe size (`/proc/sys/fs/pipe-max-size`); beyond it the run fails with `spawn`.
    public var stdin: [UInt8]
    /// Seconds the child may run before its process group gets SIGTERM.
    public var timeout: Double
    /// Seconds between SIGTERM and SIGKILL after a timeout.
    public var grace: Double
    /// Cap on memory in bytes; `nil` for none. Each process's private writable memory (RLIMIT_DATA), and where the
    /// run has a cgroup with the memory controller, the run's as a whole (`memory.max`).
    public var memoryMax: UInt64?
    /// Cap on the run's processes and threads together (`pids.max`), where the run has a cgroup with the pids
    /// controller; `nil` for none.
    public var tasksMax: Int?
    /// Stdout beyond this many bytes kills the process group with `outputTooLarge`.
    public var stdoutLimit: Int
    /// How many trailing bytes of stderr are kept.
    public var stderrTailSize: Int
    /// Once the child has exited, how long to wait for stdout and stderr to reach end-of-file (a grandchild may hold
    /// them open) before killing the group and finishing.
    public var drainAfterExit: Double
    /// How long the run goes before stdout and stderr are watched. A quick child's output fits in the pipes (64 KiB
    /// each) and is read at its exit, so its run needs no stream watches and no wake-up for its output; a longer or
    /// louder one is read as it writes from then on, and waits at most this long on a full pipe. Until then the
    /// child's exit is noticed through the end of its stdout (every writer gone), so a grandchild that holds stdout
    /// past the child's exit delays the notice until this moment; from then on a pidfd watches the exit itself.
    public var streamWatchDelay: Double
    /// A directory the child alone may write files in, beneath the sandbox's run root (`ProviderSandbox.runRoot`):
    /// its run's image directory. Without a sandbox with a run root, nothing changes.
    public var writableDirectory: String?

    /// Creates a spec; the defaults are the protocol's limits.
    public init(
        argv: [String],
        environment: [String: String] = ProcessSpec.minimalEnvironment,
        workingDirectory: String? = nil,
        stdin: [UInt8] = [],
        timeout: Double = 30,
        grace: Double = 2,
        memoryMax: UInt64? = 128 << 20,
        tasksMax: Int? = nil,
        stdoutLimit: Int = 1 << 20,
        stderrTailSize: Int = 4096,
        drainAfterExit: Double = 0.1,
        streamWatchDelay: Double = 0.025,
        writableDirectory: String? = nil
    ) {
        self.argv = argv
        self.environment = environment
        self.workingDirectory = workingDirectory
        self.stdin = stdin
        self.timeout = timeout
        self.grace = grace
        self.memoryMax = memoryMax
        self.tasksMax = tasksMax
        self.stdoutLimit = stdoutLimit
        self.stderrTailSize = stderrTailSize
        self.drainAfterExit = drainAfterExit
        self.streamWatchDelay = streamWatchDelay
        self.writableDirectory = writableDirectory
    }
}
