import WidgetProtocol
import WidgetSchedulerCore

/// The outcome of one provider request, as a value: the validated answer, or a failure with its reason.
public enum ProviderRunResult: Sendable, Hashable {
    /// The provider exited 0 with a valid answer; its stderr tail goes to the log all the same.
    case success(ProviderAnswer, stderrTail: String)
    /// The run or its answer failed.
    case failure(ProviderRunFailure)

    /// The answer, on success.
    public var answer: ProviderAnswer? {
        if case .success(let answer, _) = self { return answer }
        return nil
    }

    /// The timeline, on success of a timeline request.
    public var timeline: Timeline? {
        if case .success(.timeline(let timeline), _) = self { return timeline }
        return nil
    }

    /// The failure, if any.
    public var failure: ProviderRunFailure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }

    /// The provider's stderr tail, either way.
    public var stderrTail: String {
        switch self {
        case .success(_, let tail): return tail
        case .failure(let failure): return failure.stderrTail
        }
    }
}
