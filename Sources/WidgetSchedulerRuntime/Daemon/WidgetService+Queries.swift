import Foundation
import WidgetProtocol
import WidgetProviders
import WidgetSchedulerCore

/// The control API's read methods: open to every local user, and free of side effects.
extension WidgetService {
    /// Every widget, as `getCurrentConfigurations()` plus the scheduler's view, sorted by id.
    public func list() -> [WidgetSummary] {
        let now = clock.now()
        return widgets.keys.sorted { Self.naturalOrder($0, $1) }.compactMap { summary($0, at: now) }
    }

    /// `List`'s reply object, written one widget at a time: byte for byte `ListMethod.Reply(widgets: list())`, without
    /// holding every summary at once (for 100 000 widgets, tens of megabytes more at the daemon's peak).
    public func writeList(into output: inout JSONBytesWriter) {
        let now = clock.now()
        output.raw("{\"widgets\":[")
        var first = true
        for id in widgets.keys.sorted(by: { Self.naturalOrder($0, $1) }) {
            guard let summary = summary(id, at: now) else { continue }
            if !first { output.raw(",") }
            first = false
            ListMethod.encode(summary, into: &output)
        }
        output.raw("]}")
    }

    /// About how many bytes `writeList` writes, to reserve them at once.
    public var listCapacityEstimate: Int { 16 + widgets.count * 280 }

    func summary(_ id: String, at now: Instant) -> WidgetSummary? {
        guard let widget = widgets[id], let schedule = scheduler.widgets[id] else { return nil }
        let plan = scheduler.plannedRun(for: id, at: now)
        return WidgetSummary(
            id: id, kind: widget.kind, family: widget.family, configuration: widget.configuration,
            state: state(of: schedule, plan: plan, at: now), lastReload: widget.lastRun?.startedAt,
            lastReason: widget.lastRun?.reason.rawValue, lastOutcome: widget.lastRun?.outcome,
            nextReload: plan.map { now.wall(atMonotonic: $0.at) }, nextReason: plan?.reason.rawValue,
            tokens: Self.rounded(scheduler.tokens(of: id, at: now) ?? 0),
            currentEntry: schedule.currentEntry.map {
                WidgetSummary.CurrentEntry(date: $0.date,
                                           content: widget.currentContent.flatMap(JSONValue.init(jsonText:)) ?? .null,
                                           images: widget.currentImages.isEmpty ? nil : widget.currentImages)
            })
    }

    /// `running`, `quarantined`, `backoff`, `pending` (a run is due and waits) or `idle`.
    func state(of schedule: WidgetSchedule, plan: PlannedRun?, at now: Instant) -> String {
        if schedule.inFlight != nil { return "running" }
        if schedule.quarantined { return "quarantined" }
        if let until = schedule.backoffUntil, until > now.monotonic { return "backoff" }
        if let plan, plan.because != nil || plan.at <= now.monotonic { return "pending" }
        return "idle"
    }

    /// Every kind the manifests declare.
    public func kinds() -> [KindsMethod.Kind] {
        manifests.manifests.flatMap { manifest in
            manifest.widgets.map { kind in
                KindsMethod.Kind(
                    kind: kind.kind, displayName: kind.displayName, description: kind.description,
                    families: kind.families,
                    parameters: kind.parameters.map {
                        KindsMethod.Parameter(name: $0.name, type: $0.type.rawValue, title: $0.title,
                                              defaultValue: $0.defaultValue, dynamicOptions: $0.options == .dynamic)
                    },
                    group: manifest.group, ownerUsers: manifest.ownerUsers, ownerGroups: manifest.ownerGroups,
                    developerMode: scheduler.settings.developerKinds.contains(kind.kind),
                    widgets: scheduler.widgetIDs(ofKind: kind.kind).count, manifest: manifest.path)
            }
        }.sorted { $0.kind < $1.kind }
    }

    /// The views of every kind that has them, or of `kind` (an unknown kind is an error): the documents as the
    /// manifests loaded them, with each provider's asset folder.
    public func views(kind: String?) throws(ControlError) -> [ViewsMethod.KindViews] {
        if let kind {
            guard let manifest = manifests.manifest(forKind: kind), let widgetKind = manifest.widget(kind: kind) else {
                throw .unknownKind(kind)
            }
            return widgetKind.views.map {
                [ViewsMethod.KindViews(kind: kind, views: $0, assets: manifest.assetsDirectory)]
            } ?? []
        }
        return manifests.manifests.flatMap { manifest in
            manifest.widgets.compactMap { widgetKind in
                widgetKind.views.map {
                    ViewsMethod.KindViews(kind: widgetKind.kind, views: $0, assets: manifest.assetsDirectory)
                }
            }
        }.sorted { $0.kind < $1.kind }
    }

    /// Every entry of a widget's timeline, the current one marked, with the policy and the next reload.
    public func timeline(id: String) throws(ControlError) -> TimelineMethod.Reply {
        guard let widget = widgets[id], let schedule = scheduler.widgets[id] else { throw .unknownWidget(id) }
        let now = clock.now()
        let plan = scheduler.plannedRun(for: id, at: now)
        let policy = schedule.timeline.map { timeline -> TimelineMethod.Policy in
            if case .after(let date) = timeline.policy { return TimelineMethod.Policy(policy: "after", date: date) }
            return TimelineMethod.Policy(policy: timeline.policy.name)
        }
        let current = schedule.currentEntry
        let entries = (schedule.timeline == nil ? [] : state.fullTimeline(of: id)?.entries ?? []).map { entry in
            TimelineMethod.Entry(
                date: entry.date,
                relevance: entry.relevance.map { TimelineMethod.Relevance(score: $0.score, duration: $0.duration) },
                content: JSONValue(jsonText: entry.content) ?? .null,
                current: entry.date == current?.date && entry.relevance == current?.relevance,
                images: entry.images.isEmpty ? nil : entry.images)
        }
        return TimelineMethod.Reply(widget: id, kind: widget.kind, family: widget.family, policy: policy,
                                    entries: entries,
                                    nextReload: plan.map { now.wall(atMonotonic: $0.at) },
                                    nextReason: plan?.reason.rawValue)
    }

    /// The refresh ledger of one widget, of a kind, or of every widget.
    public func budget(id: String?, kind: String?) throws(ControlError) -> [BudgetMethod.Ledger] {
        let ids: [String]
        if let id {
            guard widgets[id] != nil else { throw .unknownWidget(id) }
            ids = [id]
        } else if let kind {
            ids = try widgetIDs(for: .kind(kind))
        } else {
            ids = widgets.keys.sorted { Self.naturalOrder($0, $1) }
        }
        let now = clock.now()
        let settings = scheduler.settings
        return ids.compactMap { id in
            guard let widget = widgets[id], let schedule = scheduler.widgets[id] else { return nil }
            let since = now.wall.addingTimeInterval(-86_400)
            // The store holds only what has been flushed: this loop turn's lines are still in the batch, and runs
            // folded since the last write (a provider looping in developer mode) have their line still to come.
            var unwritten = state.batch.history.filter { $0.widgetID == id }
            if let folded = reporter.unwrittenFoldedHistory(of: id) { unwritten.append(folded) }
            var stored: [HistoryRecord] = []
            do {
                stored = try state.store.history(widgetID: id, since: since)
            } catch {
                logger.error("\(id): cannot read its run history: \(error)", metadata: metadata(id))
            }
            var runs = (stored + unwritten)
                .filter { $0.event == .run && $0.at >= since }
                .map { record in
                    BudgetMethod.Run(at: record.at, reason: record.reason, outcome: record.outcome,
                                     budgeted: RunReason(rawValue: record.reason)?.isBudgeted ?? true,
                                     count: record.runs)
                }
            if let flight = schedule.inFlight {
                runs.append(BudgetMethod.Run(at: now.wall(atMonotonic: flight.startedAt),
                                             reason: flight.reason.rawValue,
                                             outcome: "running", budgeted: flight.reason.isBudgeted))
            }
            runs.sort { $0.at < $1.at }
            let tokens = schedule.budget.available(at: now.monotonic, settings: settings)
            let nextToken = schedule.budget.nextRefillTime(from: now.monotonic, settings: settings)
                .map { now.wall(atMonotonic: $0) }
            let floor = schedule.lastRunStart.map { $0 + settings.minimumInterval }
            return BudgetMethod.Ledger(
                widget: id, kind: widget.kind, tokens: Self.rounded(tokens), capacity: settings.burstBudget,
                nextTokenAt: nextToken, minimumInterval: settings.minimumInterval,
                floorLiftsAt: floor.flatMap { $0 > now.monotonic ? now.wall(atMonotonic: $0) : nil },
                developerMode: settings.developerKinds.contains(widget.kind),
                budgetedRuns24h: runs.filter { $0.budgeted }.reduce(0) { $0 + $1.runCount },
                exemptRuns24h: runs.filter { !$0.budgeted }.reduce(0) { $0 + $1.runCount },
                runs: runs, consecutiveFailures: schedule.consecutiveFailures,
                backoffUntil: schedule.backoffUntil.flatMap { $0 > now.monotonic ? now.wall(atMonotonic: $0) : nil },
                quarantined: schedule.quarantined)
        }
    }

    /// Widgets ordered by current relevance, as a smart stack orders them.
    public func stack(ids: [String]?) throws(ControlError) -> [StackMethod.Item] {
        for id in ids ?? [] where widgets[id] == nil { throw .unknownWidget(id) }
        let chosen = (ids ?? Array(widgets.keys)).compactMap { scheduler.widgets[$0] }
        let now = clock.now()
        return RelevanceStack.order(chosen, at: now.wall).map { item in
            StackMethod.Item(widget: item.widget, kind: widgets[item.widget]?.kind ?? "",
                             score: item.relevance?.score,
                             normalized: item.relevance.map { Self.rounded($0.normalized) },
                             relevant: item.relevance?.isRelevant ?? false, until: item.relevance?.until,
                             explanation: item.explanation)
        }
    }

    static func rounded(_ value: Double) -> Double {
        (value * 1_000).rounded() / 1_000
    }

    /// w2 before w10: runs of digits compare by their value, other bytes by value. Foundation's
    /// `compare(_:options: .numeric)` is too slow to sort a large daemon's ids for every `List`.
    static func naturalOrder(_ lhs: String, _ rhs: String) -> Bool {
        naturalComparison(lhs.utf8, rhs.utf8) < 0
    }

    private static func naturalComparison(_ left: String.UTF8View, _ right: String.UTF8View) -> Int {
        var i = left.startIndex
        var j = right.startIndex
        while i != left.endIndex, j != right.endIndex {
            guard isDigit(left[i]), isDigit(right[j]) else {
                if left[i] != right[j] { return left[i] < right[j] ? -1 : 1 }
                left.formIndex(after: &i)
                right.formIndex(after: &j)
                continue
            }
            let a = digitRun(left, from: i)
            let b = digitRun(right, from: j)
            let lengthA = left.distance(from: a.significant, to: a.end)
            let lengthB = right.distance(from: b.significant, to: b.end)
            if lengthA != lengthB { return lengthA < lengthB ? -1 : 1 }
            var x = a.significant
            var y = b.significant
            while x != a.end {
                if left[x] != right[y] { return left[x] < right[y] ? -1 : 1 }
                left.formIndex(after: &x)
                right.formIndex(after: &y)
            }
            i = a.end
            j = b.end
        }
        if i == left.endIndex && j == right.endIndex { return 0 }
        return i == left.endIndex ? -1 : 1
    }

    /// The end of the digit run starting at `start`, and where its significant digits (after leading zeros) begin.
    private static func digitRun(_ text: String.UTF8View, from start: String.UTF8View.Index)
        -> (significant: String.UTF8View.Index, end: String.UTF8View.Index)
    {
        var index = start
        while index != text.endIndex, text[index] == UInt8(ascii: "0") { text.formIndex(after: &index) }
        let significant = index
        while index != text.endIndex, isDigit(text[index]) { text.formIndex(after: &index) }
        return (significant, index)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
