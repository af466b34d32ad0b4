import Foundation
import WidgetSchedulerCore

/// What the daemon saves per widget in the schedule blob: the core's state without its timeline (saved apart), and
/// the last run's facts for `list`.
struct PersistedWidgetState: Codable {
    /// The last run that started: when, why, and how it ended (nil while it runs).
    struct LastRun: Codable, Hashable {
        var startedAt: Date
        var reason: RunReason
        var outcome: String?
    }

    var schedule: WidgetSchedule
    var lastRun: LastRun?
}
