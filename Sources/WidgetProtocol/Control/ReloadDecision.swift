import Foundation
import WidgetSchedulerCore

/// What the daemon did with a reload request for one widget, as `Reload`, `Configure` and `DataSet` report it.
/// Encodes as `{"widget","decision","at","because"}`, with `because` null unless the decision is `deferred`.
public struct ReloadDecision: Sendable, Hashable, Codable {
    /// The decision's name on the wire.
    public enum Verdict: String, Sendable, Hashable, Codable, CaseIterable {
        case ran, coalesced, deferred
    }

    public var widget: String
    public var decision: Verdict
    /// When the run started or starts (wall clock).
    public var at: Date
    /// Why a deferred run waits.
    public var because: DeferralReason?

    public init(widget: String, decision: Verdict, at: Date, because: DeferralReason? = nil) {
        self.widget = widget
        self.decision = decision
        self.at = at
        self.because = because
    }

    /// The core's decision for `widget`, its monotonic instant turned into a wall-clock date through `now`.
    public init(widget: String, decision: Decision, now: Instant) {
        let verdict: Verdict
        switch decision {
        case .ran: verdict = .ran
        case .coalesced: verdict = .coalesced
        case .deferred: verdict = .deferred
        }
        self.init(widget: widget, decision: verdict, at: now.wall(atMonotonic: decision.at), because: decision.because)
    }

    private enum CodingKeys: String, CodingKey { case widget, decision, at, because }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(widget, forKey: .widget)
        try container.encode(decision, forKey: .decision)
        try container.encode(at, forKey: .at)
        try container.encode(because, forKey: .because)
    }
}
