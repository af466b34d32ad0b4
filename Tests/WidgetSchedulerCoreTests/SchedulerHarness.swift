import Foundation
import WidgetSchedulerCore
import WidgetSchedulerCoreTestKit

/// Drives a `Scheduler` at explicit instants and reads its actions back in a compact form.
struct SchedulerHarness {
    var scheduler: Scheduler
    var clock = ManualClock()
    var nextRequest = 0

    init(_ settings: SchedulerSettings = SchedulerSettings(maxConcurrentRuns: 4)) {
        scheduler = Scheduler(settings: settings)
    }

    var now: Instant { clock.now }

    /// Advances to monotonic `t` and applies `event`.
    @discardableResult
    mutating func at(_ t: Double, _ event: SchedulerEvent) -> [SchedulerAction] {
        clock.advance(to: t)
        return scheduler.handle(event, at: clock.now)
    }

    /// Advances to `t`, sends a tick, and returns the actions.
    @discardableResult
    mutating func tick(_ t: Double) -> [SchedulerAction] { at(t, .tick) }

    /// A reload of `target` at `t`; returns the decisions, widget → decision.
    mutating func reload(_ t: Double, _ target: ReloadTarget, foreground: Bool = false) -> [String: Decision] {
        nextRequest += 1
        return Self.decisions(at(t, .reloadRequested(target, foreground: foreground, request: nextRequest)))
    }

    /// Finishes `widget`'s run at `t` with a timeline of entries at `offsets` seconds after `t` and `policy`.
    @discardableResult
    mutating func succeed(_ widget: String, at t: Double, entries offsets: [Double] = [0],
                          policy: ReloadPolicy = .never) -> [SchedulerAction] {
        clock.advance(to: t)
        let entries = offsets.map { TimelineEntry(date: clock.now.wall.addingTimeInterval($0)) }
        return at(t, .runFinished(id: widget, outcome: .success(Timeline(entries: entries, policy: policy))))
    }

    @discardableResult
    mutating func fail(_ widget: String, at t: Double) -> [SchedulerAction] {
        at(t, .runFinished(id: widget, outcome: .failure(reason: .exit, detail: "exit status 1")))
    }

    /// The wall-clock date at monotonic `t`, if the wall clock has not jumped.
    func wall(_ t: Double) -> Date { clock.now.wall(atMonotonic: t) }

    static func decisions(_ actions: [SchedulerAction]) -> [String: Decision] {
        var result: [String: Decision] = [:]
        for case .decided(let decided) in actions { result[decided.widget] = decided.decision }
        return result
    }

    static func starts(_ actions: [SchedulerAction]) -> [String: RunReason] {
        var result: [String: RunReason] = [:]
        for case .startRun(let widget, let reason) in actions { result[widget] = reason }
        return result
    }

    static func entries(_ actions: [SchedulerAction]) -> [String: Date] {
        var result: [String: Date] = [:]
        for case .entryChanged(let widget, let entry) in actions { result[widget] = entry.date }
        return result
    }
}
