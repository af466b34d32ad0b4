/// How a run ended, as the core sees it. A failure is a value with a reason, never a thrown error.
public enum RunOutcome: Sendable, Hashable {
    case success(Timeline)
    /// The run failed for `reason`; `detail` says more for logs.
    case failure(reason: RunFailureReason, detail: String)

    public var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }

    /// `success`, or the failure's reason: the outcome as history lines, `Watch` events and `List` name it.
    public var name: String {
        switch self {
        case .success: "success"
        case .failure(let reason, _): reason.rawValue
        }
    }

    /// The failure's detail, nil for a success: as history lines and `Watch` events carry it.
    public var detail: String? {
        switch self {
        case .success: nil
        case .failure(_, let detail): detail
        }
    }
}
