import Foundation

/// `Stack`: widgets ordered by current relevance, as a smart stack orders them.
public enum StackMethod: VarlinkMethod {
    public static let method = ControlMethod.stack

    public struct Parameters: Sendable, Hashable, Codable {
        /// Only these widgets; all when absent.
        public var ids: [String]?

        public init(ids: [String]? = nil) {
            self.ids = ids
        }
    }

    /// One widget's place in the stack, most relevant first.
    public struct Item: Sendable, Hashable, Codable {
        public var widget: String
        public var kind: String
        /// The provider's score, when a relevance holds now.
        public var score: Double?
        /// The score against the widget's own greatest score (0...1).
        public var normalized: Double?
        /// Whether the widget counts as relevant (a score > 0 holds now).
        public var relevant: Bool
        /// When the score stops holding; nil if it holds until the timeline ends or none holds.
        public var until: Date?
        /// Plain words for why it sits where it does.
        public var explanation: String

        public init(
            widget: String, kind: String, score: Double?, normalized: Double?, relevant: Bool, until: Date?,
            explanation: String
        ) {
            self.widget = widget
            self.kind = kind
            self.score = score
            self.normalized = normalized
            self.relevant = relevant
            self.until = until
            self.explanation = explanation
        }
    }

    public struct Reply: Sendable, Hashable, Codable {
        public var stack: [Item]

        public init(stack: [Item]) {
            self.stack = stack
        }
    }
}
