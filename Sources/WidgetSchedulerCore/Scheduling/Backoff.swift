/// How long a widget waits after its k-th consecutive failure: min(maximum, initial × 2^(k−1)).
public enum Backoff {
    /// The delay after `failures` consecutive failures (`failures` ≥ 1); 0 for no failure.
    public static func delay(afterFailures failures: Int, settings: SchedulerSettings) -> Double {
        guard failures >= 1 else { return 0 }
        // 2^63 overflows; past 62 doublings every sane maximum has long been reached.
        let doublings = min(failures - 1, 62)
        return min(settings.backoffMaximum, settings.backoffInitial * Double(UInt64(1) << UInt64(doublings)))
    }
}
