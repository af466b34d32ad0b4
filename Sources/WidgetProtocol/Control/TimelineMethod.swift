import Foundation

/// `Timeline`: every entry of a widget's current timeline, its policy and the next reload.
public enum TimelineMethod: VarlinkMethod {
    public static let method = ControlMethod.timeline

    public struct Parameters: Sendable, Hashable, Codable {
        public var id: String

        public init(id: String) {
            self.id = id
        }
    }

    /// An entry's relevance.
    public struct Relevance: Sendable, Hashable, Codable {
        public var score: Double
        public var duration: Double

        public init(score: Double, duration: Double) {
            self.score = score
            self.duration = duration
        }
    }

    /// One entry, with whether it is the current one.
    public struct Entry: Sendable, Hashable, Codable {
        public var date: Date
        public var relevance: Relevance?
        public var content: JSONValue
        public var current: Bool
        /// The images its content names, by file name (docs/provider-protocol.md, "Images"); absent when none.
        public var images: [String: EntryImage]?

        public init(date: Date, relevance: Relevance? = nil, content: JSONValue, current: Bool,
                    images: [String: EntryImage]? = nil) {
            self.date = date
            self.relevance = relevance
            self.content = content
            self.current = current
            self.images = images
        }
    }

    /// The reload policy: `atEnd`, `after` (with `date`) or `never`.
    public struct Policy: Sendable, Hashable, Codable {
        public var policy: String
        public var date: Date?

        public init(policy: String, date: Date? = nil) {
            self.policy = policy
            self.date = date
        }
    }

    public struct Reply: Sendable, Hashable, Codable {
        public var widget: String
        public var kind: String
        /// The widget's family, whose view a host draws its entries with.
        public var family: String
        /// Nil when the widget has no timeline yet.
        public var policy: Policy?
        public var entries: [Entry]
        public var nextReload: Date?
        public var nextReason: String?

        public init(
            widget: String, kind: String, family: String, policy: Policy?, entries: [Entry], nextReload: Date? = nil,
            nextReason: String? = nil
        ) {
            self.widget = widget
            self.kind = kind
            self.family = family
            self.policy = policy
            self.entries = entries
            self.nextReload = nextReload
            self.nextReason = nextReason
        }
    }
}
