/// Which widgets a reload request names.
public enum ReloadTarget: Sendable, Hashable {
    /// `reloadTimelines(ofKind:)`.
    case kind(String)
    /// `reloadAllTimelines()`.
    case all
    /// Specific widgets.
    case widgets([String])
}

/// Something that happened, handed to `Scheduler.handle(_:at:)`.
public enum SchedulerEvent: Sendable, Hashable {
    /// A widget was configured; its initial run is due at once.
    case widgetAdded(id: String, kind: String)
    /// A widget was removed. A run in flight for it should be killed by the caller; its result is ignored.
    case widgetRemoved(id: String)
    /// A widget's parameters changed: a budget-exempt `configuration` run. `request` identifies the caller.
    case configurationChanged(id: String, request: Int)
    /// A reload request; `foreground` requests are budget-exempt. `request` identifies the caller.
    case reloadRequested(ReloadTarget, foreground: Bool, request: Int)
    /// A provider run ended.
    case runFinished(id: String, outcome: RunOutcome)
    /// Time passed: the wake-up the scheduler asked for fired, or the wall clock changed.
    case tick
    /// The settings changed (configuration re-read). Budgets keep their tokens, capped at the new burst budget.
    case settingsChanged(SchedulerSettings)
    /// A caller asks a provider for `key` (`Options`, an `Add`'s defaults): a run in a slot, shared by identical
    /// requests. `uid` is the caller's, for its rate; nil when the rate does not bind it. `caller` identifies it in
    /// the decision.
    case providerRequested(ProviderRequestKey, uid: UInt32?, caller: Int)
    /// The run for `key` ended (whatever its result): its slot is free.
    case providerRequestFinished(ProviderRequestKey)
}
