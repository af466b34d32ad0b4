/// How a child process ended, as reported by waitid.
public enum ProcessTermination: Sendable, Equatable {
    /// It called exit with this status.
    case exited(Int32)
    /// This signal ended it.
    case signaled(Int32)
}
