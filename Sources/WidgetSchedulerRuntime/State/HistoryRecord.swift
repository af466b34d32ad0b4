import Foundation

/// One line of a widget's bounded history: a provider run, or a decision on a reload request.
public struct HistoryRecord: Sendable, Hashable {
    /// What kind of event a history line records.
    public enum Event: String, Sendable, Hashable, CaseIterable {
        /// A provider run finished; `outcome` is `success` or the failure reason.
        case run
        /// A reload request was decided; `outcome` is `ran`, `coalesced` or `deferred`.
        case decision
    }

    /// The row id, assigned by the store when the line is appended; nil before.
    public var id: Int64?
    /// The widget the line is about.
    public var widgetID: String
    /// Wall-clock time of the event.
    public var at: Date
    /// Monotonic seconds of the event, for ordering and intervals across wall-clock jumps.
    public var monotonic: Double
    /// Run or decision.
    public var event: Event
    /// Why the run or request happened (a reload reason, e.g. `policy`, `request`).
    public var reason: String
    /// `success` or a failure reason for a run; `ran`, `coalesced` or `deferred` for a decision.
    public var outcome: String
    /// Why a decision came out as it did, e.g. `minimum interval`.
    public var because: String?
    /// Free-form detail, e.g. a provider's stderr excerpt.
    public var detail: String?
    /// How many runs the line stands for: 1, or for a successful run's line folded with the like runs before it
    /// (a provider looping in developer mode, `RunLineFolder`) those runs too; at and monotonic are the last one's.
    public var runs: Int

    public init(
        id: Int64? = nil, widgetID: String, at: Date, monotonic: Double, event: Event, reason: String,
        outcome: String, because: String? = nil, detail: String? = nil, runs: Int = 1
    ) {
        self.id = id
        self.widgetID = widgetID
        self.at = at
        self.monotonic = monotonic
        self.event = event
        self.reason = reason
        self.outcome = outcome
        self.because = because
        self.detail = detail
        self.runs = runs
    }
}
