/// Every number the scheduling rules use. The defaults follow WidgetKit's observed limits (see docs/scheduling.md).
public struct SchedulerSettings: Sendable, Hashable, Codable {
    /// Seconds between the start of a widget's run and the earliest start of a budgeted run after it (the floor).
    public var minimumInterval: Double
    /// Budgeted reloads a widget may make per day: the token bucket's refill rate.
    public var dailyBudget: Double
    /// The token bucket's capacity. A new widget starts full.
    public var burstBudget: Double
    /// The wait after the first consecutive failure; it doubles with each further failure.
    public var backoffInitial: Double
    /// The longest wait backoff can reach.
    public var backoffMaximum: Double
    /// Consecutive failures after which a widget is quarantined.
    public var quarantineThreshold: Int
    /// Daemon deaths in a row with a run of the widget in flight after which it is quarantined at the next start.
    /// Lower than `quarantineThreshold`: under systemd a daemon that dies at each start is given up on at its
    /// fifth start in ten seconds (`StartLimitBurst=`), and every death interrupts every other widget's runs.
    public var daemonDeathQuarantineThreshold: Int
    /// Provider runs allowed at the same time, across all widgets.
    public var maxConcurrentRuns: Int
    /// How far the daemon may delay a wake-up to coalesce it with others (timer accuracy), in seconds.
    public var coalesceWindow: Double
    /// Kinds in developer mode: their budgeted runs ignore the budget and the floor.
    public var developerKinds: Set<String>
    /// Provider runs a uid may start a minute by asking `Options` (`ProviderRequests`); runs it joins are free.
    public var optionsRate: Double

    public init(
        minimumInterval: Double = 300,
        dailyBudget: Double = 72,
        burstBudget: Double = 12,
        backoffInitial: Double = 30,
        backoffMaximum: Double = 5 * 3600,
        quarantineThreshold: Int = 10,
        daemonDeathQuarantineThreshold: Int = 3,
        maxConcurrentRuns: Int = 2,
        coalesceWindow: Double = 1,
        developerKinds: Set<String> = [],
        optionsRate: Double = 30
    ) {
        self.minimumInterval = minimumInterval
        self.dailyBudget = dailyBudget
        self.burstBudget = burstBudget
        self.backoffInitial = backoffInitial
        self.backoffMaximum = backoffMaximum
        self.quarantineThreshold = quarantineThreshold
        self.daemonDeathQuarantineThreshold = daemonDeathQuarantineThreshold
        self.maxConcurrentRuns = maxConcurrentRuns
        self.coalesceWindow = coalesceWindow
        self.developerKinds = developerKinds
        self.optionsRate = optionsRate
    }

    /// Whether the floor and the budget bind `kind`'s budgeted runs: every kind but those in developer mode.
    public func bindsFloorAndBudget(ofKind kind: String) -> Bool {
        // isEmpty first: without developer kinds, as nearly always, the kind is not hashed at all.
        developerKinds.isEmpty || !developerKinds.contains(kind)
    }

    /// Seconds between two tokens: 86 400 / dailyBudget (1 200 s by default), infinite when the daily budget is 0.
    public var refillInterval: Double { dailyBudget > 0 ? 86_400 / dailyBudget : .infinity }

    /// The smallest daily budget above 0: a token a million days apart, within the longest supported duration.
    public static let smallestDailyBudget = 1e-6

    /// Problems with these values, each naming the setting, or an empty list when they are usable.
    public func problems() -> [String] {
        var problems: [String] = []
        func check(_ ok: Bool, _ message: String) { if !ok { problems.append(message) } }
        // Every duration within the supported ones, and a refill interval too: a deadline computed from them is then
        // a supported date's distance from now, which every conversion further on can hold.
        let seconds = SupportedRange.durationsDescription
        check(SupportedRange.contains(duration: minimumInterval), "minimum-interval must be \(seconds)")
        check(dailyBudget == 0 || (dailyBudget.isFinite && dailyBudget >= Self.smallestDailyBudget),
              "daily-budget must be 0 or a number ≥ 0.000001")
        check(burstBudget.isFinite && burstBudget >= 1, "burst-budget must be a number ≥ 1")
        check(SupportedRange.contains(duration: backoffInitial) && backoffInitial > 0,
              "backoff-initial must be \(seconds), > 0")
        check(SupportedRange.contains(duration: backoffMaximum) && backoffMaximum >= backoffInitial,
              "backoff-maximum must be ≥ backoff-initial and \(seconds)")
        check(quarantineThreshold >= 1, "quarantine-threshold must be an integer ≥ 1")
        check(daemonDeathQuarantineThreshold >= 1, "daemon-death-quarantine-threshold must be an integer ≥ 1")
        check(maxConcurrentRuns >= 1, "max-concurrent-runs must be an integer ≥ 1")
        check(SupportedRange.contains(duration: coalesceWindow), "coalesce-window must be \(seconds)")
        check(optionsRate.isFinite && optionsRate >= 1, "options-rate must be a number of runs a minute ≥ 1")
        return problems
    }
}
