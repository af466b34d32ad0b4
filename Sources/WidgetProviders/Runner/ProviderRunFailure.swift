import WidgetSchedulerCore

/// Why a provider run produced no usable answer: the protocol's reason, a human detail, and the stderr tail.
public struct ProviderRunFailure: Sendable, Hashable, CustomStringConvertible {
    /// `exit`, `signal`, `timeout`, `memory`, `invalid`, `output-too-large` or `spawn`.
    public var reason: RunFailureReason
    /// What happened, e.g. `killed by SIGSEGV` or `entry 3: "date" is not an RFC 3339 date: "tomorrow"`.
    public var detail: String
    /// The last bytes the provider wrote on stderr.
    public var stderrTail: String

    /// Creates a failure.
    public init(reason: RunFailureReason, detail: String, stderrTail: String) {
        self.reason = reason
        self.detail = detail
        self.stderrTail = stderrTail
    }

    public var description: String { "\(reason): \(detail)" }
}
