import Foundation

/// What a simulation did, in the shape of `simulate --json`. Times are simulated monotonic seconds since start.
public struct SimulationReport: Sendable, Hashable, Codable {
    public struct Run: Sendable, Hashable, Codable {
        public var t: Double
        public var widget: String
        public var reason: String
        /// "success" or "failure"; nil only for a run still in flight when the simulation ended.
        public var outcome: String?

        public init(t: Double, widget: String, reason: String, outcome: String?) {
            self.t = t
            self.widget = widget
            self.reason = reason
            self.outcome = outcome
        }
    }

    public struct DecisionRecord: Sendable, Hashable, Codable {
        public var t: Double
        public var request: Int
        public var widget: String
        public var decision: String
        public var at: Double
        public var because: String?

        public init(t: Double, request: Int, widget: String, decision: String, at: Double, because: String?) {
            self.t = t
            self.request = request
            self.widget = widget
            self.decision = decision
            self.at = at
            self.because = because
        }
    }

    public struct EntryChange: Sendable, Hashable, Codable {
        public var t: Double
        public var widget: String
        /// The entry's date, RFC 3339.
        public var date: String

        public init(t: Double, widget: String, date: String) {
            self.t = t
            self.widget = widget
            self.date = date
        }
    }

    public struct WidgetState: Sendable, Hashable, Codable {
        public var id: String
        public var state: String
        public var tokens: Double
        public var nextReload: Double?
        public var reason: String?

        public init(id: String, state: String, tokens: Double, nextReload: Double?, reason: String?) {
            self.id = id
            self.state = state
            self.tokens = tokens
            self.nextReload = nextReload
            self.reason = reason
        }

        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(state, forKey: .state)
            try container.encode(tokens, forKey: .tokens)
            try container.encode(nextReload, forKey: .nextReload)
            try container.encode(reason, forKey: .reason)
        }
    }

    public var runs: [Run] = []
    public var decisions: [DecisionRecord] = []
    public var entries: [EntryChange] = []
    public var widgets: [WidgetState] = []

    /// The report as one JSON document, keys in a stable order.
    public func jsonText() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
