import WidgetProviders
import WidgetSchedulerCore

/// How a provider run ended, as one value: the scheduler gets its outcome, and once the runs it lets start are
/// spawned, the run reporter writes its journal and history lines from it and the watch hub sends it to hosts.
struct RunEnd {
    var id: String
    var kind: String
    var reason: RunReason
    var outcome: RunOutcome
    var stats: ProviderRunStats
    /// What the provider wrote on stderr, last bytes.
    var stderrTail: String
    var at: Instant
    /// The widget's tokens once the scheduler has taken the outcome in, for the journal line.
    var tokens: Double = 0
}
