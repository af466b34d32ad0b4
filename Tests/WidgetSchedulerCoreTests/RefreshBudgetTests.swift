import Testing
import WidgetSchedulerCore

/// The token bucket at explicit instants, with the default settings: 72 a day (one per 1 200 s), burst 12.
struct RefreshBudgetTests {
    let settings = SchedulerSettings()

    struct Row: Sendable, CustomTestStringConvertible {
        var tokens: Double
        var stamp: Double
        var at: Double
        var available: Double
        var nextToken: Double
        var testDescription: String { "\(tokens) tokens at \(stamp), read at \(at)" }
    }

    @Test("tokens refill one per 1 200 s up to the burst, and the next token time follows", arguments: [
        Row(tokens: 12, stamp: 0, at: 0, available: 12, nextToken: 0),
        Row(tokens: 12, stamp: 0, at: 999_999, available: 12, nextToken: 999_999),
        Row(tokens: 0, stamp: 0, at: 0, available: 0, nextToken: 1_200),
        Row(tokens: 0, stamp: 0, at: 600, available: 0.5, nextToken: 1_200),
        Row(tokens: 0, stamp: 0, at: 1_200, available: 1, nextToken: 1_200),
        Row(tokens: 0.25, stamp: 100, at: 100, available: 0.25, nextToken: 1_000),
        Row(tokens: 11.5, stamp: 0, at: 1_200, available: 12, nextToken: 1_200),
        Row(tokens: 3, stamp: 500, at: 400, available: 3, nextToken: 400),
        Row(tokens: 0, stamp: 500, at: 400, available: 0, nextToken: 1_700),
    ])
    func refill(_ row: Row) {
        let budget = RefreshBudget(tokens: row.tokens, stamp: row.stamp)
        #expect(abs(budget.available(at: row.at, settings: settings) - row.available) < 1e-9)
        #expect(abs(budget.nextTokenTime(from: row.at, settings: settings) - row.nextToken) < 1e-6)
    }

    @Test("the next whole token arrives when the count reaches its next whole number", arguments: [
        (12.0, nil), (11.0, 1_200.0), (2.25, 900.0), (0.0, 1_200.0), (0.5, 600.0),
    ] as [(Double, Double?)])
    func nextRefill(tokens: Double, expected: Double?) {
        let budget = RefreshBudget(tokens: tokens, stamp: 0)
        #expect(budget.nextRefillTime(from: 0, settings: settings) == expected)
    }

    @Test func aNewWidgetStartsWithAFullBucket() {
        let budget = RefreshBudget(fullAt: 42, settings: settings)
        #expect(budget.available(at: 42, settings: settings) == 12)
    }

    @Test func spendingTakesOneTokenAndRefillContinuesFromThere() {
        var budget = RefreshBudget(tokens: 1, stamp: 0)
        budget.spend(at: 0, settings: settings)
        #expect(budget.available(at: 0, settings: settings) == 0)
        #expect(!budget.hasToken(at: 1_199, settings: settings))
        #expect(budget.hasToken(at: 1_200, settings: settings))
    }

    @Test func aZeroDailyBudgetNeverRefills() {
        let none = SchedulerSettings(dailyBudget: 0)
        let budget = RefreshBudget(tokens: 0, stamp: 0)
        #expect(budget.available(at: 1e9, settings: none) == 0)
        #expect(budget.nextTokenTime(from: 0, settings: none) == .infinity)
    }

    @Test func timeRunningBackwardsMintsNoToken() {
        let budget = RefreshBudget(tokens: 0.5, stamp: 10_000)
        #expect(budget.available(at: 0, settings: settings) == 0.5)
    }

    @Test func rebasingMovesTheStampAndKeepsTheTokens() {
        let budget = RefreshBudget(tokens: 2, stamp: 100).rebased(by: -50)
        #expect(budget.tokens == 2)
        #expect(budget.stamp == 50)
    }
}
