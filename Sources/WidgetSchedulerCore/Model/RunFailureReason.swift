/// Why a provider run gave no timeline: the protocol's reason names (`FAILURE_REASON=` in the journal, `outcome` in
/// history lines, `Watch` events and `List`). Every layer names a failure with this one type, so the runner, the
/// answer's validation and the daemon cannot spell a reason two ways.
public enum RunFailureReason: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// The provider exited with a non-zero status.
    case exit
    /// A signal the runner did not send ended the provider.
    case signal
    /// The provider was still running at its timeout, and its group was terminated.
    case timeout
    /// The provider failed at its memory cap.
    case memory
    /// The answer did not validate, or was not the kind of answer asked for.
    case invalid
    /// Stdout passed its limit, or the answer had too many entries.
    case outputTooLarge = "output-too-large"
    /// The provider could not be started (no manifest serves its kind, no program, a failed spawn...).
    case spawn
    /// The daemon stopped while the run was in flight: the outcome a restored widget's last run is given.
    case interrupted
    /// The daemon died (it did not stop) while the run was in flight: the outcome a restored widget's last run is
    /// given, and the reason of a quarantine for daemon deaths (`WidgetSchedule.afterDaemonDeath`).
    case daemonDied = "daemon-died"

    /// The protocol's name, e.g. `output-too-large`.
    public var description: String { rawValue }
}
