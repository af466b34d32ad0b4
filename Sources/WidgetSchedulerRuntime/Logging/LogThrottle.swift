/// At most one log line per `interval` for an event that can come in floods (connections refused or timed out), so
/// that a hostile client cannot flood the journal; each line says how many it left out. Pure: `now` is passed in.
struct LogThrottle: Sendable {
    /// Seconds between two lines.
    let interval: Double
    private var loggedAt = -Double.infinity
    private var leftOut = 0

    init(interval: Double) {
        self.interval = interval
    }

    /// Whether the event at `now` is logged: nil when it is left out, else the number left out since the last line.
    mutating func admit(at now: Double) -> Int? {
        guard now - loggedAt >= interval else {
            leftOut += 1
            return nil
        }
        defer {
            loggedAt = now
            leftOut = 0
        }
        return leftOut
    }
}
