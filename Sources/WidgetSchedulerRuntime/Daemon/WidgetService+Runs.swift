import Foundation
import Logging
import WidgetProtocol
import WidgetProviders
import WidgetSchedulerCore

/// Provider runs: their spends recorded before they start, their launch, and their end, which becomes one `RunEnd`
/// handed to the scheduler, then to the reporter and the watch hub.
extension WidgetService {
    /// A run just launched, whose journal line is written once the event's other news is told and its pid known.
    struct LaunchedRun {
        var id: String
        var kind: String
        var reason: RunReason
        var handle: ProviderRunHandle
    }

    /// A spent token and the run's start must survive a kill -9 before the provider runs: a restart would otherwise
    /// refund the token and run the widget again inside the floor. The store records the starting widgets'
    /// schedules (one write, no commit); if it cannot, the whole batch is committed instead. While writes fail
    /// (a full disk takes both), the runs still start, their spends kept in memory: the widgets stay current, and
    /// the degraded state is logged once, not once a run. A kind in developer mode has neither floor nor budget to
    /// protect: its run starts are written with the turn's changes.
    func recordSpends(of starts: [(id: String, position: Int, reason: RunReason)], at now: Instant) {
        var bound: [WidgetScheduleRecord] = []
        for (id, position, _) in starts {
            // The kind read in place: `widgets[id]?.kind` would copy the whole widget out for it.
            guard scheduler.settings.bindsFloorAndBudget(ofKind: widgets[position: position].kind),
                  let record = scheduleRecord(id, at: now) else { continue }
            bound.append(record)
        }
        guard !bound.isEmpty else { return }
        if !state.recordRunStarts(bound), state.mayAttemptWrite(at: now) { flush() }
    }

    /// Spawns the provider of the widget at `position` of `widgets`; nil if no manifest serves its kind (that run
    /// has already failed).
    func launchRun(_ id: String, at position: Int, reason: RunReason, at now: Instant) -> LaunchedRun? {
        // The fields read in place: a copy of the widget would retain every one of them for a request of three.
        let kind = widgets[position: position].kind
        guard let manifest = manifests.manifest(forKind: kind) else {
            let failure = ProviderRunFailure(reason: .spawn, detail: "no manifest serves kind \"\(kind)\"",
                                             stderrTail: "")
            finishRun(id, reason: reason, result: .failure(failure),
                      stats: ProviderRunStats(pid: 0, exitStatus: nil, duration: 0), deferred: true)
            return nil
        }
        let imageDirectory = manifest.savesImages ? makeImageDirectory(for: id) : nil
        let request = ProviderRequest(
            request: .timeline, kind: kind,
            widget: ProviderRequest.Widget(id: id, family: widgets[position: position].family,
                                           configuration: widgets[position: position].configuration),
            context: ProviderRequest.Context(now: now.wall, isPreview: false, reason: reason,
                                             dataDirectory: manifest.group.map(groupData.directory(of:)),
                                             imageDirectory: imageDirectory))
        let invocation = ProviderInvocation(manifest: manifest, request: request, grace: options.providerGrace)
        let handle = launcher.launch(invocation) { [weak self] result, stats in
            guard let self else { return }
            let taken = imageDirectory.map { takeImages(of: result, from: $0) } ?? result
            finishRun(id, reason: reason, result: taken, stats: stats, deferred: false)
        }
        running[id] = handle
        return LaunchedRun(id: id, kind: kind, reason: reason, handle: handle)
    }

    func logStart(_ run: LaunchedRun, pid: Int32) {
        let now = clock.now()
        reporter.runStarted(id: run.id, kind: run.kind, reason: run.reason, pid: pid,
                            tokens: scheduler.tokens(of: run.id, at: now) ?? 0,
                            developerMode: !scheduler.settings.bindsFloorAndBudget(ofKind: run.kind)
                                && run.reason.isBudgeted,
                            history: &state.batch)
    }

    /// A run ended with `result`: the widget keeps its timeline and last outcome, and the end goes to the scheduler,
    /// which may start other runs; the end is told once they are spawned. `deferred`: the run never started (no
    /// manifest), and its end is handled after the event being handled.
    func finishRun(_ id: String, reason: RunReason, result: ProviderRunResult, stats: ProviderRunStats,
                   deferred: Bool) {
        running[id] = nil
        guard let position = widgets.position(forKey: id) else { return }
        // An end that clears daemon deaths (`WidgetSchedule.afterDaemonDeath`) is written with its event, not when
        // the pacer says: after a death every interrupted run starts again at once, and an innocent widget whose run
        // ended just before the guilty one's answer kills the daemon again would otherwise count that death too.
        if let scheduled = scheduler.widgets.position(forKey: id),
           scheduler.widgets[position: scheduled].interruptedByDaemonDeaths > 0 {
            writeWhenHandled = true
        }
        let now = clock.now()
        let outcome: RunOutcome
        switch result {
        case .success(.timeline(let timeline), _):
            outcome = .success(timeline)
            state.received(timeline, for: id, at: now.wall)
            timelineImageHashes[id] = Self.hashes(of: timeline.entries)
            updateImageReferences(of: id)
        case .success:
            outcome = .failure(reason: .invalid, detail: "the provider did not answer with a timeline")
        case .failure(let failure):
            outcome = .failure(reason: failure.reason, detail: failure.detail)
        }
        let outcomeName = outcome.name
        // In place, through the position: `widgets[id]?.…` copies the widget out and back in.
        let kind = widgets.modify(at: position) { widget in
            widget.lastRun?.outcome = outcomeName
            return widget.kind
        }
        let end = RunEnd(id: id, kind: kind, reason: reason, outcome: outcome, stats: stats,
                         stderrTail: result.stderrTail, at: now)
        if deferred || isHandling {
            tell(end)
            followUps.append(.runFinished(id: id, outcome: outcome))
        } else {
            // The runs this exit lets start are spawned first; then this one is told, then the rest.
            handle(.runFinished(id: id, outcome: outcome), ending: end)
        }
    }

    /// Tells a run's end: its journal and history lines (`RunReporter`), with the widget's tokens as they are now,
    /// and its `runFinished` event (`WatchHub`).
    func tell(_ end: RunEnd) {
        var end = end
        end.tokens = scheduler.tokens(of: end.id, at: end.at) ?? 0
        reporter.runEnded(end, history: &state.batch)
        hub.runEnded(end)
    }

    /// Kills every provider run in flight (the daemon is stopping). Their results are not waited for: the runs stay
    /// pending in the saved state and run again after the restart, their tokens still spent.
    public func terminateRuns() {
        for handle in running.values { handle.terminate() }
        terminateProviderRequests()
    }
}
