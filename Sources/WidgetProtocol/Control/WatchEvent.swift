import Foundation

/// One event of a `Watch` stream, flat so that a host can read it as one JSON line:
/// - `entryChanged`: `{"event","widget","kind","date","content"}`, sent at the entry's date;
/// - `runFinished`: `{"event","widget","kind","date","reason","outcome","detail"?}`;
/// - `decision`: `{"event","widget","kind","date","decision","at","because"?}`.
public struct WatchEvent: Sendable, Hashable, Codable, JSONObjectEncodable {
    /// The kind of event.
    public enum Event: String, Sendable, Hashable, Codable, CaseIterable {
        case entryChanged, runFinished, decision
    }

    public var event: Event
    public var widget: String
    public var kind: String
    /// When it happened: the entry's date for `entryChanged`, the run's end, the decision's time.
    public var date: Date
    /// The new current entry's content (`entryChanged`).
    public var content: JSONValue?
    /// The run's reason (`runFinished`).
    public var reason: String?
    /// `success` or the failure reason (`runFinished`).
    public var outcome: String?
    /// More words about a failure (`runFinished`).
    public var detail: String?
    /// `ran`, `coalesced` or `deferred` (`decision`).
    public var decision: ReloadDecision.Verdict?
    /// When the decided run starts (`decision`).
    public var at: Date?
    /// Why a deferred run waits (`decision`).
    public var because: String?

    public init(
        event: Event, widget: String, kind: String, date: Date, content: JSONValue? = nil, reason: String? = nil,
        outcome: String? = nil, detail: String? = nil, decision: ReloadDecision.Verdict? = nil, at: Date? = nil,
        because: String? = nil
    ) {
        self.event = event
        self.widget = widget
        self.kind = kind
        self.date = date
        self.content = content
        self.reason = reason
        self.outcome = outcome
        self.detail = detail
        self.decision = decision
        self.at = at
        self.because = because
    }

    public var jsonCapacityEstimate: Int { 160 }

    /// The event as `VarlinkCoding` writes it (keys sorted, absent members left out), without `JSONEncoder`: every
    /// run and every entry change is published, and encoding them was a few per cent of the daemon's time per run.
    public func encodeJSONObject(into output: inout JSONBytesWriter) {
        // Each key is written with its punctuation in one piece: `date`, `event`, `kind` and `widget` are always
        // there, so only the keys before `date` need to know whether one came before them. Four pieces a key made
        // 20 appends an event besides the values' own; now 6 (~27 % of an event's encoding, under callgrind).
        output.raw("{")
        var follows = false
        if let at {
            output.raw("\"at\":")
            output.date(at)
            follows = true
        }
        if let because {
            output.raw(follows ? ",\"because\":" : "\"because\":")
            output.string(because)
            follows = true
        }
        if let content {
            output.raw(follows ? ",\"content\":" : "\"content\":")
            output.value(content)
            follows = true
        }
        output.raw(follows ? ",\"date\":" : "\"date\":")
        output.date(date)
        if let decision {
            output.raw(",\"decision\":")
            output.string(decision.rawValue)
        }
        if let detail {
            output.raw(",\"detail\":")
            output.string(detail)
        }
        output.raw(",\"event\":")
        output.string(event.rawValue)
        output.raw(",\"kind\":")
        output.string(kind)
        if let outcome {
            output.raw(",\"outcome\":")
            output.string(outcome)
        }
        if let reason {
            output.raw(",\"reason\":")
            output.string(reason)
        }
        output.raw(",\"widget\":")
        output.string(widget)
        output.raw("}")
    }

    /// A widget's current entry changed to one dated `date` with `content`.
    public static func entryChanged(widget: String, kind: String, date: Date, content: JSONValue) -> WatchEvent {
        WatchEvent(event: .entryChanged, widget: widget, kind: kind, date: date, content: content)
    }

    /// A run for `reason` ended at `date` with `outcome`.
    public static func runFinished(
        widget: String, kind: String, date: Date, reason: String, outcome: String, detail: String? = nil
    ) -> WatchEvent {
        WatchEvent(
            event: .runFinished, widget: widget, kind: kind, date: date, reason: reason, outcome: outcome,
            detail: detail)
    }

    /// The scheduler decided `decision` at `date`.
    public static func decided(kind: String, date: Date, decision: ReloadDecision) -> WatchEvent {
        WatchEvent(
            event: .decision, widget: decision.widget, kind: kind, date: date, decision: decision.decision,
            at: decision.at, because: decision.because?.rawValue)
    }
}
