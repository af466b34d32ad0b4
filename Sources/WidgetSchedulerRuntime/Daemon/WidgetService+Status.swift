import Foundation
import WidgetProtocol
import WidgetSchedulerCore

/// The daemon's status: the one-line text `systemctl status` shows (sd_notify's `STATUS=`) and `Status`'s reply.
extension WidgetService {
    /// "12 widgets, 1 running, next reload weather/w3 in 4min 3s" (`TimeSpan`); a run due already is "now". While
    /// the state cannot be written it begins "degraded, state not written (cause); ".
    public func statusLine(at now: Instant) -> String {
        var text = state.health.failure.map { "degraded, state not written (\($0.cause)); " } ?? ""
        text += "\(Counted.phrase(widgets.count, "widget")), \(scheduler.runningCount) running"
        if let (id, plan) = nextPlannedRun(at: now), let kind = widgets[id]?.kind {
            text += ", next reload \(kind)/\(id) \(TimeSpan.relative(max(0, plan.at - now.monotonic)))"
        }
        return text
    }

    /// The earliest planned run across all widgets.
    func nextPlannedRun(at now: Instant) -> (String, PlannedRun)? {
        var best: (String, PlannedRun)?
        for id in scheduler.widgets.keys {
            guard let plan = scheduler.plannedRun(for: id, at: now) else { continue }
            if best == nil || plan.at < best!.1.at || (plan.at == best!.1.at && id < best!.0) { best = (id, plan) }
        }
        return best
    }

    /// The daemon as a whole.
    public func status(version: String) -> StatusMethod.Reply {
        let now = clock.now()
        var pending = 0
        var quarantined = 0
        for (id, schedule) in scheduler.widgets {
            if schedule.quarantined { quarantined += 1 }
            if let plan = scheduler.plannedRun(for: id, at: now), plan.at <= now.monotonic || plan.because != nil {
                pending += 1
            }
        }
        let next = nextPlannedRun(at: now).flatMap { id, plan in
            widgets[id].map {
                StatusMethod.NextReload(widget: id, kind: $0.kind, at: now.wall(atMonotonic: plan.at),
                                        reason: plan.reason.rawValue)
            }
        }
        let settings = scheduler.settings
        return StatusMethod.Reply(
            version: version, pid: Int(getpid()), startedAt: startedAt, status: statusLine(at: now),
            widgets: widgets.count, kinds: manifests.kinds.count, running: scheduler.runningCount, pending: pending,
            quarantined: quarantined, nextReload: next,
            settings: StatusMethod.Settings(
                minimumInterval: settings.minimumInterval, dailyBudget: settings.dailyBudget,
                burstBudget: settings.burstBudget, maxConcurrentRuns: settings.maxConcurrentRuns,
                coalesceWindow: settings.coalesceWindow, developerKinds: settings.developerKinds.sorted()),
            stateDirectory: options.stateDirectory.path, stateWritePending: hasUnwrittenChanges,
            socket: options.socketPath,
            providerDirectories: manifests.directories.map {
                StatusMethod.ProviderDirectory(path: $0.path, state: $0.stateName, manifests: $0.files)
            },
            stateNotWritten: state.health.failure.map {
                StatusMethod.StateWriteFailure(
                    since: now.wall(atMonotonic: $0.since), cause: $0.cause, attempts: $0.attempts,
                    nextAttempt: now.wall(atMonotonic: $0.nextAttempt))
            })
    }
}
