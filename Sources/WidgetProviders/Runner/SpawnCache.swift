/// What the runner built for earlier spawns (programs, file actions), by what it was built from. The few most
/// recently used entries are found by comparing keys with `==`, which for the same program's key is a comparison of
/// storage identities; only a miss there hashes the key. Hashing a program's key (path, argv and environment) was a
/// per-run cost of about a microsecond.
struct SpawnCache<Key: Hashable, Value> {
    /// Entries kept before the cache starts over: more than the runs in flight need.
    static var limit: Int { 64 }
    /// How many entries are looked for by equality before hashing: a daemon alternates between a few kinds.
    static var recentLimit: Int { 4 }

    private var recent: [(key: Key, value: Value)] = []
    private var all: [Key: Value] = [:]

    init() {
        recent.reserveCapacity(Self.recentLimit)
    }

    /// The value built for `key`, or what `make` builds for it, kept.
    mutating func value<Failure: Error>(
        for key: Key, make: (Key) throws(Failure) -> Value
    ) throws(Failure) -> Value {
        if let position = recent.firstIndex(where: { $0.key == key }) {
            let value = recent[position].value
            if position != 0 { recent.insert(recent.remove(at: position), at: 0) }
            return value
        }
        let value: Value
        if let found = all[key] {
            value = found
        } else {
            value = try make(key)
            if all.count >= Self.limit { all.removeAll() }
            all[key] = value
        }
        if recent.count == Self.recentLimit { recent.removeLast() }
        recent.insert((key, value), at: 0)
        return value
    }

    /// The number of distinct keys held.
    var count: Int { all.count }
}
