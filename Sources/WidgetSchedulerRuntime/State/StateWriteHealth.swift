import Foundation

/// Whether the daemon can write its state, and when it tries again after a write failed: the pure rule, with `now`
/// (monotonic seconds) as an argument.
///
/// A failed write (a full disk, a read-only or failing filesystem) keeps its changes in memory. The daemon is then
/// degraded: it says so once in the journal and in `STATUS=`, refuses state-changing requests it cannot save, and
/// retries after a backoff that doubles from `initialBackoff` to `maximumBackoff`, so a disk that stays full costs
/// a few attempts a minute, not ten a second, and a disk that has room again is noticed within `maximumBackoff`.
/// A client asking to change state may have one attempt made for it at once, at most once per
/// `clientAttemptInterval`: whoever freed the space need not wait for the backoff.
public struct StateWriteHealth: Sendable, Equatable {
    /// The writes failing since `since`.
    public struct Failure: Sendable, Equatable {
        /// When the first failed write was attempted.
        public var since: Double
        /// What the latest failed write said.
        public var cause: String
        /// Failed writes so far.
        public var attempts: Int
        /// When the latest write was attempted.
        public var lastAttempt: Double
        /// When the backoff allows the next attempt.
        public var nextAttempt: Double
    }

    public let initialBackoff: Double
    public let maximumBackoff: Double
    public let clientAttemptInterval: Double
    /// Nil while writes succeed.
    public private(set) var failure: Failure?

    public init(initialBackoff: Double = 0.5, maximumBackoff: Double = 30, clientAttemptInterval: Double = 1) {
        self.initialBackoff = initialBackoff
        self.maximumBackoff = maximumBackoff
        self.clientAttemptInterval = clientAttemptInterval
    }

    /// Whether a write is failing: the daemon is degraded.
    public var isDegraded: Bool { failure != nil }

    /// A write failed at `now` with `cause`. Returns true for the first failure of a spell, the one to log.
    @discardableResult
    public mutating func failed(at now: Double, cause: String) -> Bool {
        guard var failure else {
            failure = Failure(since: now, cause: cause, attempts: 1, lastAttempt: now,
                              nextAttempt: now + initialBackoff)
            return true
        }
        failure.attempts += 1
        failure.cause = cause
        failure.lastAttempt = now
        // Capped so that a disk full for days never makes the power huge: 2^30 backoffs are far past the maximum.
        let exponent = Double(min(failure.attempts - 1, 30))
        failure.nextAttempt = now + min(maximumBackoff, initialBackoff * pow(2, exponent))
        self.failure = failure
        return false
    }

    /// A write succeeded at `now`. Returns the spell of failures it ends, if any, to log the recovery.
    @discardableResult
    public mutating func succeeded(at now: Double) -> Failure? {
        defer { failure = nil }
        return failure
    }

    /// When the backoff allows the next attempt; nil while writes succeed.
    public var nextAttempt: Double? { failure?.nextAttempt }

    /// Whether a client's state-changing request may have a write attempted for it at `now`: always while writes
    /// succeed, else once the backoff allows or `clientAttemptInterval` has passed since the last attempt.
    public func mayAttemptForClient(at now: Double) -> Bool {
        guard let failure else { return true }
        return now >= failure.nextAttempt || now >= failure.lastAttempt + clientAttemptInterval
    }
}
