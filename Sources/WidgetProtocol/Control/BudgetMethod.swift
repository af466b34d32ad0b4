import Foundation

/// `Budget`: the refresh ledger of one widget, of every widget of a kind, or of all widgets.
public enum BudgetMethod: VarlinkMethod {
    public static let method = ControlMethod.budget

    public struct Parameters: Sendable, Hashable, Codable {
        public var id: String?
        public var kind: String?

        public init(id: String? = nil, kind: String? = nil) {
            self.id = id
            self.kind = kind
        }
    }

    /// One run in the last 24 hours, or like runs folded into one line.
    public struct Run: Sendable, Hashable, Codable {
        /// When it ended (the last of folded runs), or started for one `running`.
        public var at: Date
        public var reason: String
        /// `success`, a failure reason, or `running`.
        public var outcome: String
        /// Whether it spent a token.
        public var budgeted: Bool
        /// How many runs the line stands for, when more than one: like successful runs of a provider looping in
        /// developer mode, folded as their journal line is (`RUNS_FOLDED` + 1); nil for one run.
        public var count: Int?

        /// Creates a line; a `count` of 1 is stored as nil.
        public init(at: Date, reason: String, outcome: String, budgeted: Bool, count: Int = 1) {
            self.at = at
            self.reason = reason
            self.outcome = outcome
            self.budgeted = budgeted
            self.count = count > 1 ? count : nil
        }

        /// How many runs the line stands for: `count`, or 1.
        public var runCount: Int { count ?? 1 }
    }

    /// One widget's ledger.
    public struct Ledger: Sendable, Hashable, Codable {
        public var widget: String
        public var kind: String
        public var tokens: Double
        public var capacity: Double
        /// When the next token arrives; nil when the bucket is full or the budget is 0.
        public var nextTokenAt: Date?
        public var minimumInterval: Double
        /// When the floor lifts; nil when it already has.
        public var floorLiftsAt: Date?
        public var developerMode: Bool
        public var budgetedRuns24h: Int
        public var exemptRuns24h: Int
        public var runs: [Run]
        public var consecutiveFailures: Int
        public var backoffUntil: Date?
        public var quarantined: Bool

        public init(
            widget: String, kind: String, tokens: Double, capacity: Double, nextTokenAt: Date?,
            minimumInterval: Double, floorLiftsAt: Date?, developerMode: Bool, budgetedRuns24h: Int,
            exemptRuns24h: Int, runs: [Run], consecutiveFailures: Int, backoffUntil: Date?, quarantined: Bool
        ) {
            self.widget = widget
            self.kind = kind
            self.tokens = tokens
            self.capacity = capacity
            self.nextTokenAt = nextTokenAt
            self.minimumInterval = minimumInterval
            self.floorLiftsAt = floorLiftsAt
            self.developerMode = developerMode
            self.budgetedRuns24h = budgetedRuns24h
            self.exemptRuns24h = exemptRuns24h
            self.runs = runs
            self.consecutiveFailures = consecutiveFailures
            self.backoffUntil = backoffUntil
            self.quarantined = quarantined
        }
    }

    public struct Reply: Sendable, Hashable, Codable {
        public var ledgers: [Ledger]

        public init(ledgers: [Ledger]) {
            self.ledgers = ledgers
        }
    }
}
