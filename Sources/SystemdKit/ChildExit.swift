import Glibc

/// How a child process watched with `EventLoop.addChild` ended, from its `siginfo_t`.
public struct ChildExit: Sendable, Equatable, CustomStringConvertible {
    /// The child's process id.
    public let pid: pid_t
    /// `CLD_EXITED`, `CLD_KILLED` or `CLD_DUMPED`.
    public let code: Int32
    /// The exit status when `code` is `CLD_EXITED`, else the signal number.
    public let status: Int32

    /// Creates a value from the fields of a `siginfo_t`.
    public init(pid: pid_t, code: Int32, status: Int32) {
        self.pid = pid
        self.code = code
        self.status = status
    }

    // glibc declares the CLD_* codes in an anonymous enum, which Swift imports as Int.
    static let exited = Int32(CLD_EXITED)
    static let killed = Int32(CLD_KILLED)
    static let dumped = Int32(CLD_DUMPED)

    /// The exit status if the child called `exit`, nil if a signal ended it.
    public var exitStatus: Int32? {
        code == Self.exited ? status : nil
    }

    /// The signal that ended the child, nil if it exited.
    public var terminatingSignal: Int32? {
        code == Self.killed || code == Self.dumped ? status : nil
    }

    /// True when the child exited with status 0.
    public var succeeded: Bool {
        exitStatus == 0
    }

    public var description: String {
        switch code {
        case Self.exited: return "exited with status \(status)"
        case Self.killed: return "killed by signal \(signalName(status))"
        case Self.dumped: return "killed by signal \(signalName(status)) (core dumped)"
        default: return "ended with siginfo code \(code), status \(status)"
        }
    }
}

/// The conventional name of a signal ("SIGKILL"), or its number when unknown.
public func signalName(_ signo: Int32) -> String {
    let names: [Int32: String] = [
        SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP",
        SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGUSR1: "SIGUSR1",
        SIGSEGV: "SIGSEGV", SIGUSR2: "SIGUSR2", SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM", SIGTERM: "SIGTERM",
        SIGCHLD: "SIGCHLD", SIGCONT: "SIGCONT", SIGSTOP: "SIGSTOP", SIGTSTP: "SIGTSTP", SIGXCPU: "SIGXCPU",
        SIGXFSZ: "SIGXFSZ", SIGSYS: "SIGSYS",
    ]
    return names[signo] ?? "\(signo)"
}

/// What a signal source reports for each delivered signal.
public struct SignalInfo: Sendable, Equatable {
    /// The signal number.
    public let signal: Int32
    /// The sender's process id (0 for kernel-generated signals).
    public let senderPID: pid_t
    /// The sender's real user id.
    public let senderUID: uid_t
}
