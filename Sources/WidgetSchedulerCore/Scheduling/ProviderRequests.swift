/// The provider runs that callers ask for (`ProviderRequestKey`), under the rules that keep a local user from filling
/// the machine with providers:
/// - they take the same slots as widget runs (`max-concurrent-runs`), the `Scheduler` counting them with its own, but
///   hold at most half of them (at least one, `slotLimit`), so callers never starve the widgets; when both wait for a
///   slot, they take turns (`Scheduler`);
/// - a request whose key is queued or in flight already joins that run and costs nothing;
/// - a uid may start `options-rate` runs a minute: a token bucket of that capacity, refilled at that rate. Callers
///   the daemon trusts (root, the admin group, an `Add` that passed its authorization) pass no uid.
///
/// Pure: `now` is monotonic seconds, passed in.
public struct ProviderRequests: Sendable {
    /// What became of one request.
    public enum Admission: Sendable, Hashable {
        /// Its run starts now.
        case start
        /// Its run waits for a free slot.
        case queued
        /// A run with its key is queued or in flight: that run's answer is its answer.
        case joined
        /// Its uid is past its rate; it may ask again in `retryAfter` seconds.
        case refused(retryAfter: Double)
    }

    /// A uid's tokens, as of `at`.
    private struct Bucket: Sendable {
        var tokens: Double
        var at: Double

        func tokens(at now: Double, perMinute: Double) -> Double {
            min(perMinute, tokens + max(0, now - at) * perMinute / 60)
        }
    }

    /// Runs in flight.
    public private(set) var running: Set<ProviderRequestKey> = []
    /// Runs waiting for a slot, oldest first.
    public private(set) var queue: [ProviderRequestKey] = []
    private var buckets: [UInt32: Bucket] = [:]

    public init() {}

    /// Runs in flight: slots they take.
    public var runningCount: Int { running.count }

    /// The slots callers' runs may hold at once out of `maxConcurrentRuns`: half, and at least one. Widget runs keep
    /// the rest, however many questions callers ask and however long a provider takes to answer them.
    public static func slotLimit(ofConcurrentRuns maxConcurrentRuns: Int) -> Int {
        max(1, maxConcurrentRuns / 2)
    }

    /// Whether a queued run may take a free slot: one waits, and callers' runs hold fewer than `slotLimit`.
    public func mayStartNext(ofConcurrentRuns maxConcurrentRuns: Int) -> Bool {
        !queue.isEmpty && runningCount < Self.slotLimit(ofConcurrentRuns: maxConcurrentRuns)
    }

    /// Decides on a request for `key` by `uid` (nil: a caller the rate does not bind) at `now`, with a slot it may
    /// take free or not.
    public mutating func admit(
        _ key: ProviderRequestKey, uid: UInt32?, slotFree: Bool, at now: Double, perMinute: Double
    ) -> Admission {
        if running.contains(key) || queue.contains(key) { return .joined }
        if let uid {
            var bucket = buckets[uid] ?? Bucket(tokens: perMinute, at: now)
            bucket = Bucket(tokens: bucket.tokens(at: now, perMinute: perMinute), at: now)
            guard bucket.tokens >= 1 else {
                buckets[uid] = bucket
                return .refused(retryAfter: (1 - bucket.tokens) * 60 / perMinute)
            }
            bucket.tokens -= 1
            buckets[uid] = bucket
            forgetFullBuckets(at: now, perMinute: perMinute)
        }
        if slotFree {
            running.insert(key)
            return .start
        }
        queue.append(key)
        return .queued
    }

    /// The oldest queued request, now counted in flight; nil when none waits.
    public mutating func startNext() -> ProviderRequestKey? {
        guard !queue.isEmpty else { return nil }
        let key = queue.removeFirst()
        running.insert(key)
        return key
    }

    /// The run for `key` ended: its slot is free.
    public mutating func finished(_ key: ProviderRequestKey) {
        running.remove(key)
    }

    /// A uid whose bucket has refilled is as good as one never seen: dropped once they are many, so the table stays
    /// the size of the uids asking now.
    private mutating func forgetFullBuckets(at now: Double, perMinute: Double) {
        guard buckets.count > 64 else { return }
        buckets = buckets.filter { $0.value.tokens(at: now, perMinute: perMinute) < perMinute }
    }
}
