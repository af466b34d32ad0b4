import Foundation
import WidgetProtocol
import WidgetSchedulerCore

/// The daemon's status: the one-line text `systemctl status` shows (sd_notify's `STATUS=`) and `Status`'s reply.
extension WidgetService {
    /// "12 widgets, 1 running, next reload weather/w3 in 4 min".
    public func statusLine(at now: Instant) -> String {
        var text = "\(widgets.count) widget\(widgets.count == 1 ? "" : "s"), \(scheduler.runningCount) running"
        if let (id, plan) = nextPlannedRun(at: now), let kind = widgets[id]?.kind {
            text += ", next reload \(kind)/\(id) \(Self.relative(plan.at - now.monotonic))"
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

    static func relative(_ seconds: Double) -> String {
        if seconds < 1 { return "now" }
        if seconds < 90 { return "in \(Int(seconds.rounded())) s" }
        if seconds < 5_400 { return "in \(Int((seconds / 60).rounded())) min" }
        if seconds < 172_800 { return "in \(Int((seconds / 3_600).rounded())) h" }
        return "in \(Int((seconds / 86_400).rounded())) days"
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
            stateDirectory: options.stateDirectory.path, socket: options.socketPath)
    }
}
