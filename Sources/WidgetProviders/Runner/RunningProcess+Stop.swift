extension RunningProcess {
    /// Why the runner itself ended a run, kept beside its phase as timer.c keeps a unit's `TimerResult`: it decides
    /// the run's failure when the child is reaped (`RunningProcess.failure(of:)`), and tells a SIGKILL the runner sent
    /// from one the kernel's OOM killer did.
    enum Stop: Equatable, Sendable {
        /// The run's owner cancelled it: the group was killed.
        case cancelled
        /// Stdout passed its limit: the group was killed.
        case outputTooLarge
        /// The timeout passed: the group was terminated.
        case timedOut
        /// The run could not go on (a spawn, a watch or a limit failed): the child, if any, was killed.
        case failed(ProcessFailure)

        /// The stop a run keeps when `newer` comes after this one: a failure of the runner's own over a timeout,
        /// over the output limit, over a cancellation; between equals, the first.
        func merged(with newer: Stop) -> Stop {
            newer.rank > rank ? newer : self
        }

        private var rank: Int {
            switch self {
            case .cancelled: 0
            case .outputTooLarge: 1
            case .timedOut: 2
            case .failed: 3
            }
        }
    }
}
