import Foundation
import WidgetSchedulerCore

/// `Reload`: WidgetKit's `reloadTimelines(ofKind:)` / `reloadAllTimelines()`, or a reload of named widgets.
/// Exactly one of `kind`, `all` or `widgets` names the target; `foreground` asks for a budget-exempt run.
public enum ReloadMethod: VarlinkMethod {
    public static let method = ControlMethod.reload

    public struct Parameters: Sendable, Hashable, Codable {
        public var kind: String?
        public var all: Bool?
        public var widgets: [String]?
        public var foreground: Bool?

        public init(kind: String? = nil, all: Bool? = nil, widgets: [String]? = nil, foreground: Bool? = nil) {
            self.kind = kind
            self.all = all
            self.widgets = widgets
            self.foreground = foreground
        }

        /// Which widgets the call names.
        public enum Target: Sendable, Hashable {
            case kind(String)
            case all
            case widgets([String])
        }

        /// The one target the parameters name, or `InvalidParameter` when they name none or several.
        public func target() throws(ControlError) -> Target {
            var targets: [Target] = []
            if let kind { targets.append(.kind(kind)) }
            if all == true { targets.append(.all) }
            if let widgets {
                guard !widgets.isEmpty else { throw .invalidParameter("widgets", reason: "must name at least one id") }
                targets.append(.widgets(widgets))
            }
            guard targets.count == 1, let target = targets.first else {
                throw .invalidParameter("kind", reason: "give exactly one of kind, all or widgets")
            }
            return target
        }

        /// Whether the caller asked for a foreground (budget-exempt) run.
        public var isForeground: Bool { foreground ?? false }
    }

    public struct Reply: Sendable, Hashable, Codable, JSONObjectEncodable {
        /// One decision per widget the request named.
        public var decisions: [ReloadDecision]

        public init(decisions: [ReloadDecision]) {
            self.decisions = decisions
        }

        public var jsonCapacityEstimate: Int { 32 + decisions.count * 96 }

        /// `{"decisions":[{"at":…,"because":…,"decision":…,"widget":…},…]}`, keys sorted as `VarlinkCoding` sorts
        /// them.
        public func encodeJSONObject(into output: inout JSONBytesWriter) {
            output.raw("{\"decisions\":[")
            for (index, decision) in decisions.enumerated() {
                // Keys in VarlinkCoding's sorted order; constant runs merged, as this runs once per widget.
                if index > 0 { output.raw(",{\"at\":") } else { output.raw("{\"at\":") }
                output.date(decision.at)
                switch decision.because {
                case nil: output.raw(",\"because\":null,\"decision\":")
                case .floor?: output.raw(",\"because\":\"floor\",\"decision\":")
                case .budget?: output.raw(",\"because\":\"budget\",\"decision\":")
                case .backoff?: output.raw(",\"because\":\"backoff\",\"decision\":")
                case .concurrency?: output.raw(",\"because\":\"concurrency\",\"decision\":")
                }
                switch decision.decision {
                case .ran: output.raw("\"ran\",\"widget\":")
                case .coalesced: output.raw("\"coalesced\",\"widget\":")
                case .deferred: output.raw("\"deferred\",\"widget\":")
                }
                output.string(decision.widget)
                output.raw("}")
            }
            output.raw("]}")
        }
    }
}
