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

        /// `{"decisions":[{"at":…,"because":…,"decision":…,"widget":…},…]}`, keys sorted as `VarlinkCoding` sorts
        /// them.
        public func encodedJSONObject() -> [UInt8] {
            var output = JSONBytesWriter(reservingCapacity: 32 + decisions.count * 96)
            output.raw("{\"decisions\":[")
            for (index, decision) in decisions.enumerated() {
                if index > 0 { output.raw(",") }
                output.raw("{\"at\":")
                output.date(decision.at)
                output.raw(",\"because\":")
                switch decision.because {
                case nil: output.raw("null")
                case .floor?: output.raw("\"floor\"")
                case .budget?: output.raw("\"budget\"")
                case .backoff?: output.raw("\"backoff\"")
                case .concurrency?: output.raw("\"concurrency\"")
                }
                output.raw(",\"decision\":")
                switch decision.decision {
                case .ran: output.raw("\"ran\"")
                case .coalesced: output.raw("\"coalesced\"")
                case .deferred: output.raw("\"deferred\"")
                }
                output.raw(",\"widget\":")
                output.string(decision.widget)
                output.raw("}")
            }
            output.raw("]}")
            return output.bytes
        }
    }
}
