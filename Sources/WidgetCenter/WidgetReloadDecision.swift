import Foundation
import WidgetProtocol

/// What the daemon did with a reload request for one widget. WidgetKit's reloads are "always a suggestion" and say
/// nothing; here each one is answered, for an app that wants to know.
public struct WidgetReloadDecision: Sendable, Hashable, CustomStringConvertible {
    /// The decision.
    public enum Outcome: Sendable, Hashable {
        /// The provider runs now.
        case ran
        /// A run already pending or running for the widget takes the request in.
        case coalesced
        /// The run waits until `until`, because of the widget's budget, floor, backoff or the concurrency limit.
        case deferred(until: Date, because: DeferralReason)
    }

    /// Why a run waits.
    public enum DeferralReason: String, Sendable, Hashable, CaseIterable {
        /// Five minutes (the floor) have not passed since the widget's previous run.
        case floor
        /// The widget's daily budget is spent; a token comes back at the date given.
        case budget
        /// The widget's provider failed recently and backs off.
        case backoff
        /// As many providers as the daemon allows are already running.
        case concurrency
    }

    /// The widget's id.
    public var widgetID: String
    public var outcome: Outcome
    /// When the run started or starts.
    public var date: Date

    public init(widgetID: String, outcome: Outcome, date: Date) {
        self.widgetID = widgetID
        self.outcome = outcome
        self.date = date
    }

    /// The decision the daemon sent; a deferral without its reason is a reply this library cannot read.
    init(_ decision: ReloadDecision) throws(WidgetCenterError) {
        let outcome: Outcome
        switch decision.decision {
        case .ran: outcome = .ran
        case .coalesced: outcome = .coalesced
        case .deferred:
            guard let because = decision.because.flatMap({ DeferralReason(rawValue: $0.rawValue) }) else {
                throw .connectionFailed("unexpected reply from the daemon: \(decision.widget) deferred without a "
                    + "known reason (\(decision.because?.rawValue ?? "none"))")
            }
            outcome = .deferred(until: decision.at, because: because)
        }
        self.init(widgetID: decision.widget, outcome: outcome, date: decision.at)
    }

    /// The decisions of a reply, in its order.
    static func decisions(_ reply: [ReloadDecision]) throws(WidgetCenterError) -> [WidgetReloadDecision] {
        var decisions: [WidgetReloadDecision] = []
        decisions.reserveCapacity(reply.count)
        for decision in reply { decisions.append(try WidgetReloadDecision(decision)) }
        return decisions
    }

    /// `w1: ran at 2026-01-05T08:00:00Z`, `w1: coalesced into the run at 2026-01-05T08:00:30Z`,
    /// `w1: deferred until 2026-01-05T08:05:00Z (floor)`.
    public var description: String {
        switch outcome {
        case .ran: return "\(widgetID): ran at \(date.formatted(.iso8601))"
        case .coalesced: return "\(widgetID): coalesced into the run at \(date.formatted(.iso8601))"
        case .deferred(let until, let because):
            return "\(widgetID): deferred until \(until.formatted(.iso8601)) (\(because.rawValue))"
        }
    }
}
