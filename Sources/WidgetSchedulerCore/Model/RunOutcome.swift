/// How a run ended, as the core sees it. A failure is a value with a reason, never a thrown error.
public enum RunOutcome: Sendable, Hashable {
    case success(Timeline)
    /// `reason` is one of the runner's reasons (`exit`, `signal`, `timeout`, `memory`, `invalid`,
    /// `output-too-large`, `spawn`); `detail` says more for logs.
    case failure(reason: String, detail: String)

    public var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}
