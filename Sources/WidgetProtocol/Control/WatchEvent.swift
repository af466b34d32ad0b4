import Foundation

/// One event of a `Watch` stream, flat so that a host can read it as one JSON line:
/// - `entryChanged`: `{"event","widget","kind","date","content","images"?}`, sent at the entry's date;
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
    public var content: JSONValue? {
        get {
            switch contentStorage {
            case .value(let value): value
            case .canonicalText(let text): JSONValue(jsonText: text) ?? .null
            case nil: nil
            }
        }
        set { contentStorage = newValue.map(ContentStorage.value) }
    }
    /// The images the new current entry's content names, by file name (`entryChanged`); absent when none.
    public var images: [String: EntryImage]?
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

    /// The content as given: a value, or text in `JSONValue.jsonText()`'s form, which the daemon's timelines hold
    /// and `encodeJSONObject` writes as it is: parsing each entry's content only to write it out again would be work
    /// done for every run.
    private enum ContentStorage: Sendable {
        case value(JSONValue)
        case canonicalText(String)
    }

    private var contentStorage: ContentStorage?

    private enum CodingKeys: String, CodingKey {
        case event, widget, kind, date, content, images, reason, outcome, detail, decision, at, because
    }

    public init(
        event: Event, widget: String, kind: String, date: Date, content: JSONValue? = nil,
        images: [String: EntryImage]? = nil, reason: String? = nil, outcome: String? = nil, detail: String? = nil,
        decision: ReloadDecision.Verdict? = nil, at: Date? = nil, because: String? = nil
    ) {
        self.event = event
        self.widget = widget
        self.kind = kind
        self.date = date
        self.contentStorage = content.map(ContentStorage.value)
        self.images = images
        self.reason = reason
        self.outcome = outcome
        self.detail = detail
        self.decision = decision
        self.at = at
        self.because = because
    }

    public var jsonCapacityEstimate: Int { 160 }

    /// The event as `VarlinkCoding` writes it (keys sorted, absent members left out), without `JSONEncoder`: every
    /// run and every entry change is published, and `JSONEncoder` would be a noticeable part of the daemon's work.
    public func encodeJSONObject(into output: inout JSONBytesWriter) {
        // Each key is written with its punctuation in one piece: `date`, `event`, `kind` and `widget` are always
        // there, so only the keys before `date` need to know whether one came before them: a few appends an event
        // rather than four a key.
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
        if let contentStorage {
            output.raw(follows ? ",\"content\":" : "\"content\":")
            switch contentStorage {
            case .value(let value): output.value(value)
            case .canonicalText(let text): output.canonicalJSON(text)
            }
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
        if let images {
            output.raw(",\"images\":")
            output.value(EntryImage.jsonValue(images))
        }
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

    /// A widget's current entry changed to one dated `date` with `content` (and the images it names).
    public static func entryChanged(widget: String, kind: String, date: Date, content: JSONValue,
                                    images: [String: EntryImage]? = nil) -> WatchEvent {
        WatchEvent(event: .entryChanged, widget: widget, kind: kind, date: date, content: content, images: images)
    }

    /// `entryChanged` with its content as JSON text in `JSONValue.jsonText()`'s form (compact, keys sorted), as
    /// `ProviderAnswerDecoder` leaves every entry's content: it is sent as it is, never parsed. Text of any other form
    /// would be sent as it is too, so anything else goes through `entryChanged(widget:kind:date:content:)`.
    public static func entryChanged(widget: String, kind: String, date: Date, canonicalContent: String,
                                    images: [String: EntryImage]? = nil) -> WatchEvent {
        var event = WatchEvent(event: .entryChanged, widget: widget, kind: kind, date: date, images: images)
        event.contentStorage = .canonicalText(canonicalContent)
        return event
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            event: try container.decode(Event.self, forKey: .event),
            widget: try container.decode(String.self, forKey: .widget),
            kind: try container.decode(String.self, forKey: .kind),
            date: try container.decode(Date.self, forKey: .date),
            content: try container.decodeIfPresent(JSONValue.self, forKey: .content),
            images: try container.decodeIfPresent([String: EntryImage].self, forKey: .images),
            reason: try container.decodeIfPresent(String.self, forKey: .reason),
            outcome: try container.decodeIfPresent(String.self, forKey: .outcome),
            detail: try container.decodeIfPresent(String.self, forKey: .detail),
            decision: try container.decodeIfPresent(ReloadDecision.Verdict.self, forKey: .decision),
            at: try container.decodeIfPresent(Date.self, forKey: .at),
            because: try container.decodeIfPresent(String.self, forKey: .because))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(event, forKey: .event)
        try container.encode(widget, forKey: .widget)
        try container.encode(kind, forKey: .kind)
        try container.encode(date, forKey: .date)
        try container.encodeIfPresent(content, forKey: .content)
        try container.encodeIfPresent(images, forKey: .images)
        try container.encodeIfPresent(reason, forKey: .reason)
        try container.encodeIfPresent(outcome, forKey: .outcome)
        try container.encodeIfPresent(detail, forKey: .detail)
        try container.encodeIfPresent(decision, forKey: .decision)
        try container.encodeIfPresent(at, forKey: .at)
        try container.encodeIfPresent(because, forKey: .because)
    }

    /// Equal when every member is, the content compared by value however it is held.
    public static func == (lhs: WatchEvent, rhs: WatchEvent) -> Bool {
        lhs.event == rhs.event && lhs.widget == rhs.widget && lhs.kind == rhs.kind && lhs.date == rhs.date
            && lhs.content == rhs.content && lhs.images == rhs.images && lhs.reason == rhs.reason
            && lhs.outcome == rhs.outcome
            && lhs.detail == rhs.detail && lhs.decision == rhs.decision && lhs.at == rhs.at
            && lhs.because == rhs.because
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(event)
        hasher.combine(widget)
        hasher.combine(kind)
        hasher.combine(date)
        hasher.combine(content)
        hasher.combine(images)
        hasher.combine(reason)
        hasher.combine(outcome)
        hasher.combine(detail)
        hasher.combine(decision)
        hasher.combine(at)
        hasher.combine(because)
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
