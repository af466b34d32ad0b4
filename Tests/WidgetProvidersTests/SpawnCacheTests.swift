import Testing
@testable import WidgetProviders

/// The runner's cache of what it built for earlier spawns: built once per key, found again whether it is among the
/// recent entries or only in the table, and started over when full.
@Suite("Spawn cache")
struct SpawnCacheTests {
    struct LookupCase: CustomTestStringConvertible, Sendable {
        var name: String
        /// Keys looked up in order.
        var keys: [String]
        /// The keys built, in order: a key is built only when the cache does not hold it.
        var built: [String]
        var testDescription: String { name }
    }

    static let lookupCases: [LookupCase] = [
        LookupCase(name: "one program run again is built once", keys: ["a", "a", "a"], built: ["a"]),
        LookupCase(name: "kinds taking turns are each built once", keys: ["a", "b", "a", "b", "c", "a"],
                   built: ["a", "b", "c"]),
        LookupCase(name: "a key pushed out of the recent entries is still in the table",
                   keys: ["a", "b", "c", "d", "e", "a"], built: ["a", "b", "c", "d", "e"]),
        LookupCase(name: "distinct keys are each built", keys: ["a", "b"], built: ["a", "b"]),
    ]

    @Test(arguments: lookupCases)
    func aKeyIsBuiltOnlyWhenTheCacheDoesNotHoldIt(_ example: LookupCase) {
        var cache = SpawnCache<String, String>()
        var built: [String] = []
        for key in example.keys {
            let value = cache.value(for: key) { key in
                built.append(key)
                return "built \(key)"
            }
            #expect(value == "built \(key)")
        }
        #expect(built == example.built)
    }

    @Test func aFullCacheStartsOverAndBuildsAgain() {
        var cache = SpawnCache<Int, Int>()
        var builds = 0
        let limit = SpawnCache<Int, Int>.limit
        for key in 0..<limit {
            _ = cache.value(for: key) { builds += 1; return $0 }
        }
        #expect(cache.count == limit)
        _ = cache.value(for: limit) { builds += 1; return $0 }
        #expect(cache.count == 1)
        // The first key left both the table and the recent entries: it is built again.
        _ = cache.value(for: 0) { builds += 1; return $0 }
        #expect(builds == limit + 2)
    }

    @Test func aFailedBuildKeepsNothing() {
        struct Refused: Error {}
        var cache = SpawnCache<String, String>()
        #expect(throws: Refused.self) {
            _ = try cache.value(for: "a") { _ throws(Refused) in throw Refused() }
        }
        #expect(cache.count == 0)
        var built = 0
        _ = cache.value(for: "a") { built += 1; return $0 }
        #expect(built == 1)
    }
}
