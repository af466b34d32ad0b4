import Foundation

/// A decision made for one widget in answer to one request.
public struct RequestDecision: Sendable, Hashable {
    public var request: Int
    public var widget: String
    public var decision: Decision
    /// False when the request changed nothing: it joined a run already in flight with its follow-up already
    /// planned, or a run already due and waiting with the same reason. A caller may log such decisions in bulk.
    public var changedPlan: Bool

    public init(request: Int, widget: String, decision: Decision, changedPlan: Bool = true) {
        self.request = request
        self.widget = widget
        self.decision = decision
        self.changedPlan = changedPlan
    }
}

/// What the scheduler asks its caller to do, or tells it happened. The caller carries these out in order.
public enum SchedulerAction: Sendable, Hashable {
    /// Start the widget's provider now.
    case startRun(widget: String, reason: RunReason)
    /// Answer a request for one widget.
    case decided(RequestDecision)
    /// The widget's current entry changed; hosts are told now, at the entry's date. The entry is always one of the
    /// widget's newest timeline (`WidgetSchedule.timeline`), where the caller finds its content.
    case entryChanged(widget: String, entry: TimelineOutline.Entry)
    /// A failure put the widget into backoff until `until` (monotonic) after `failures` consecutive failures.
    case backedOff(widget: String, failures: Int, until: Double)
    /// The widget reached the failure threshold and stops running by itself.
    case quarantined(widget: String, failures: Int)
    /// A budgeted run came due but waits for a token until `until`.
    case budgetExhausted(widget: String, until: Double)
    /// The wall clock jumped by `delta` seconds; wall-clock deadlines were recomputed.
    case wallClockJumped(delta: Double)
    /// The widget's persisted state changed.
    case stateChanged(widget: String)
    /// What became of a caller's provider request (`caller` is the event's): it starts, waits, joins a run, or is
    /// refused.
    case providerRequestDecided(caller: Int, key: ProviderRequestKey, admission: ProviderRequests.Admission)
    /// Start the provider for a request now; its end comes back as `.providerRequestFinished`.
    case startProviderRequest(ProviderRequestKey)
}
