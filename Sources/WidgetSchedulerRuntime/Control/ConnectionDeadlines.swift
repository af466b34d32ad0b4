import HeapModule
import WidgetProtocol

/// When connections must be closed for keeping the socket without using it, and the earliest such moment, for the
/// server's one timer. Pure: times are seconds on a monotonic clock, passed in.
///
/// A connection has one deadline at a time (`deadline(of:limits:)`): the end of `message-timeout` from the first
/// byte of a message still incomplete, or, while no call of it is open, the end of `idle-timeout` from its last
/// traffic. Traffic moves deadlines later on nearly every read and write, so entries are not moved in the heap:
/// a due entry is checked against the connection's deadline now and pushed again when that is later. An entry is
/// pushed only when a deadline comes earlier than the connection's earliest entry, so a connection has at most a
/// few in the heap.
struct ConnectionDeadlines: Sendable {
    /// Why a connection's deadline falls when it does: the reason its `ConnectionTimedOut` error gives.
    typealias Reason = ControlError.TimeoutReason

    /// What a connection's deadline follows.
    struct Activity: Sendable, Hashable {
        /// When a byte was last read from it or written to it.
        var lastTraffic: Double
        /// When the first byte of the message still incomplete came, nil when none is.
        var messageStarted: Double?
        /// Whether a call of it is pending or streaming: the daemon owes it replies, so it is not idle.
        var callOpen: Bool
    }

    /// The moment and the reason a connection is closed if nothing changes, nil when never.
    static func deadline(of activity: Activity, limits: ControlLimits) -> (at: Double, reason: Reason)? {
        let message = activity.messageStarted.map { ($0 + limits.messageTimeout, Reason.incompleteMessage) }
        let idle = activity.callOpen ? nil : (activity.lastTraffic + limits.idleTimeout, Reason.idle)
        switch (message, idle) {
        case (let message?, let idle?): return idle.0 < message.0 ? idle : message
        case (let message?, nil): return message
        case (nil, let idle?): return idle
        case (nil, nil): return nil
        }
    }

    private struct Entry: Comparable {
        var at: Double
        var id: Int

        static func < (lhs: Entry, rhs: Entry) -> Bool { lhs.at != rhs.at ? lhs.at < rhs.at : lhs.id < rhs.id }
    }

    private var heap = Heap<Entry>()
    /// Each tracked connection's earliest entry in the heap.
    private var earliestEntry: [Int: Double] = [:]

    /// The earliest entry: when the timer should fire (an entry may have gone stale; firing for it costs a check).
    var earliest: Double? { heap.min?.at }

    /// Entries in the heap, stale ones included.
    var entryCount: Int { heap.count }

    /// Connection `id`'s deadline is now `at` (nil: none). It gets an entry when that is earlier than its earliest.
    mutating func update(id: Int, at: Double?) {
        guard let at else { return }
        if let entry = earliestEntry[id], entry <= at { return }
        earliestEntry[id] = at
        heap.insert(Entry(at: at, id: id))
        // Closed connections and superseded entries leave stale ones behind until they come due; they are dropped
        // when they outnumber the live ones, so a flood of short connections cannot grow the heap.
        if heap.count > 2 * earliestEntry.count + 64 {
            heap = Heap(heap.unordered.filter { earliestEntry[$0.id] == $0.at })
        }
    }

    /// Connection `id` is gone.
    mutating func remove(id: Int) {
        earliestEntry[id] = nil
    }

    /// Takes out the connections with an entry due at `now`: the caller checks each one's deadline and closes it or
    /// gives it its new deadline with `update`.
    mutating func takeDue(now: Double) -> [Int] {
        var due: [Int] = []
        while let top = heap.min, top.at <= now {
            heap.removeMin()
            if earliestEntry[top.id] == top.at {
                earliestEntry[top.id] = nil
                due.append(top.id)
            }
        }
        return due
    }
}
