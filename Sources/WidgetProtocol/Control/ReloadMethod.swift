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
        /// One decision per widget the request named: empty when a kind, or the daemon, has no widgets.
        public var decisions: [ReloadDecision]
        /// The kind the request named, so an empty list says whose widgets there were none of.
        public var kind: String?

        public init(decisions: [ReloadDecision], kind: String? = nil) {
            self.decisions = decisions
            self.kind = kind
        }

        public var jsonCapacityEstimate: Int { 32 + decisions.count * 96 + (kind?.utf8.count ?? 0) }

        /// `{"decisions":[{"at":…,"because":…,"decision":…,"widget":…},…],"kind":…}`, keys sorted as
        /// `VarlinkCoding` sorts them, `kind` only when the request named one.
        public func encodeJSONObject(into output: inout JSONBytesWriter) {
            output.raw("{\"decisions\":[")
            // Through a cursor, in memory bounded up front: the keys and punctuation below, with the longest
            // `because` and `decision`, take 65 bytes.
            let maximum = decisions.reduce(0) {
                $0 + 65 + JSONByteCursor.maximumDateCount + JSONByteCursor.maximumCount(ofString: $1.widget)
            }
            output.appendWritten(atMost: maximum) { cursor in
                for (index, decision) in decisions.enumerated() {
                    // Keys in VarlinkCoding's sorted order; constant runs merged, as this runs once per widget.
                    if index > 0 { cursor.raw(",{\"at\":") } else { cursor.raw("{\"at\":") }
                    cursor.date(decision.at)
                    switch decision.because {
                    case nil: cursor.raw(",\"because\":null,\"decision\":")
                    case .floor?: cursor.raw(",\"because\":\"floor\",\"decision\":")
                    case .budget?: cursor.raw(",\"because\":\"budget\",\"decision\":")
                    case .backoff?: cursor.raw(",\"because\":\"backoff\",\"decision\":")
                    case .concurrency?: cursor.raw(",\"because\":\"concurrency\",\"decision\":")
                    }
                    switch decision.decision {
                    case .ran: cursor.raw("\"ran\",\"widget\":")
                    case .coalesced: cursor.raw("\"coalesced\",\"widget\":")
                    case .deferred: cursor.raw("\"deferred\",\"widget\":")
                    }
                    cursor.string(decision.widget)
                    cursor.raw("}")
                }
            }
            output.raw("]")
            if let kind {
                output.raw(",\"kind\":")
                output.string(kind)
            }
            output.raw("}")
        }
    }
}
