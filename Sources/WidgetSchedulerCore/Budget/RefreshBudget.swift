/// A widget's token bucket, on monotonic time.
///
/// It holds at most `burstBudget` tokens and gains one every `refillInterval` seconds (86 400 / dailyBudget), evenly.
/// A budgeted run spends one. Time that runs backwards (a rebased restart) mints nothing.
public struct RefreshBudget: Sendable, Hashable, Codable {
    /// Tokens at `stamp`.
    public private(set) var tokens: Double
    /// The monotonic instant `tokens` was computed for.
    public private(set) var stamp: Double

    /// Slack for floating-point refill arithmetic: a bucket this close to a whole token has it.
    static let epsilon = 1e-9

    /// A full bucket, as a new widget gets.
    public init(fullAt monotonic: Double, settings: SchedulerSettings) {
        self.tokens = settings.burstBudget
        self.stamp = monotonic
    }

    /// A bucket with given contents, for restoring persisted state and for tests.
    public init(tokens: Double, stamp: Double) {
        self.tokens = tokens
        self.stamp = stamp
    }

    /// Tokens available at `monotonic`, refill included.
    public func available(at monotonic: Double, settings: SchedulerSettings) -> Double {
        let elapsed = max(0, monotonic - stamp)
        guard settings.refillInterval.isFinite else { return min(tokens, settings.burstBudget) }
        return min(settings.burstBudget, tokens + elapsed / settings.refillInterval)
    }

    /// Whether a whole token is available at `monotonic`.
    public func hasToken(at monotonic: Double, settings: SchedulerSettings) -> Bool {
        available(at: monotonic, settings: settings) >= 1 - Self.epsilon
    }

    /// The earliest instant ≥ `monotonic` at which a whole token is available; infinity if it never will be.
    public func nextTokenTime(from monotonic: Double, settings: SchedulerSettings) -> Double {
        let now = available(at: monotonic, settings: settings)
        if now >= 1 - Self.epsilon { return monotonic }
        guard settings.refillInterval.isFinite else { return .infinity }
        return max(monotonic, stamp) + (1 - now) * settings.refillInterval
    }

    /// When the bucket next gains a whole token (the count reaches its next whole number) after `monotonic`; nil
    /// when it is full or never refills. This is the ledger's "next token at", whether or not one is needed now.
    public func nextRefillTime(from monotonic: Double, settings: SchedulerSettings) -> Double? {
        let now = available(at: monotonic, settings: settings)
        guard now < settings.burstBudget - Self.epsilon, settings.refillInterval.isFinite else { return nil }
        let missing = (now + Self.epsilon).rounded(.down) + 1 - now
        return monotonic + missing * settings.refillInterval
    }

    /// Spends one token at `monotonic`. The caller checked `hasToken`; rounding below zero is clamped.
    public mutating func spend(at monotonic: Double, settings: SchedulerSettings) {
        let current = available(at: monotonic, settings: settings)
        tokens = max(0, current - 1)
        stamp = max(stamp, monotonic)
    }

    /// The same bucket with its stamp moved by `shift` seconds (restoring across a reboot). No tokens are added.
    public func rebased(by shift: Double) -> RefreshBudget {
        RefreshBudget(tokens: tokens, stamp: stamp + shift)
    }
}
