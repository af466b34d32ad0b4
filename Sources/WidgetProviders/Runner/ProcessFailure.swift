import WidgetSchedulerCore

#if canImport(Glibc)
import Glibc
#endif

/// Why a run failed. `reason` is the protocol's name for it (`FAILURE_REASON` in the journal).
public enum ProcessFailure: Sendable, Equatable, CustomStringConvertible {
    /// The child exited with a non-zero status.
    case exit(Int32)
    /// A signal the runner did not send ended the child.
    case signal(Int32)
    /// The child was still running after this many seconds, and its group was terminated.
    case timeout(seconds: Double)
    /// The child failed while at its memory cap of this many bytes (see `ProcessResult` for how this is told).
    case memory(limit: UInt64)
    /// Stdout passed this many bytes, and the group was killed.
    case outputTooLarge(limit: Int)
    /// The child could not be started: the errno and what was being done.
    case spawn(errno: Int32, message: String)

    /// The protocol's reason: `exit`, `signal`, `timeout`, `memory`, `output-too-large` or `spawn`.
    public var reason: RunFailureReason {
        switch self {
        case .exit: .exit
        case .signal: .signal
        case .timeout: .timeout
        case .memory: .memory
        case .outputTooLarge: .outputTooLarge
        case .spawn: .spawn
        }
    }

    /// A human sentence with the details, e.g. `killed by SIGSEGV`.
    public var detail: String {
        switch self {
        case .exit(let code): "exited with status \(code)"
        case .signal(let signo): "killed by \(ProcessFailure.signalName(signo))"
        case .timeout(let seconds): "still running after \(Self.seconds(seconds)), terminated"
        case .memory(let limit): "ran out of memory at its cap of \(limit) bytes"
        case .outputTooLarge(let limit): "wrote more than \(limit) bytes on stdout, killed"
        case .spawn(let number, let message): "\(message): \(String(cString: strerror(number)))"
        }
    }

    public var description: String { "\(reason): \(detail)" }

    /// `SIGSEGV` for 11, and so on; `signal N` for numbers without a name.
    public static func signalName(_ signo: Int32) -> String {
        let names: [Int32: String] = [
            SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP",
            SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGUSR1: "SIGUSR1",
            SIGSEGV: "SIGSEGV", SIGUSR2: "SIGUSR2", SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM", SIGTERM: "SIGTERM",
            SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ", SIGSYS: "SIGSYS",
        ]
        return names[signo] ?? "signal \(signo)"
    }

    private static func seconds(_ value: Double) -> String {
        Int64(exactly: value).map { "\($0) s" } ?? "\(value) s"
    }
}
