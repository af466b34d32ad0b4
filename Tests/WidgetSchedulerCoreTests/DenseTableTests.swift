import Testing
import WidgetSchedulerCore

/// The dense table behaves as a dictionary of its keys, whatever order removals leave its values in.
struct DenseTableTests {
    static func table(_ keys: [String]) -> DenseTable<Int> {
        var table = DenseTable<Int>()
        for (value, key) in keys.enumerated() { table[key] = value }
        return table
    }

    @Test func valuesAreFoundByKeyAndReplacedInPlace() {
        var table = Self.table(["a", "b", "c"])
        table["b"] = 20
        #expect(table["a"] == 0 && table["b"] == 20 && table["c"] == 2 && table["z"] == nil)
        #expect(table.count == 3)
        #expect(table.modify("c") { $0 += 1; return $0 } == 3)
        #expect(table.modify("z") { $0 += 1 } == nil)
        #expect(table["c"] == 3)
    }

    @Test func aValueIsReadAndChangedThroughItsPositionUntilAKeyIsRemoved() throws {
        var table = Self.table(["a", "b", "c"])
        let position = try #require(table.position(forKey: "b"))
        #expect(table[position: position] == 1)
        table[position: position] += 10
        #expect(table["b"] == 11)
        table.removeValue(forKey: "a")
        // Removal moves the last value into the gap: positions are looked up again after it.
        let moved = try #require(table.position(forKey: "c"))
        table[position: moved] = 30
        #expect(table["c"] == 30 && table["b"] == 11 && table.count == 2)
    }

    @Test("removing any key keeps every other key's value", arguments: ["a", "b", "c", "d", "missing"])
    func removal(_ removed: String) {
        var table = Self.table(["a", "b", "c", "d"])
        let value = table.removeValue(forKey: removed)
        #expect(value == ["a": 0, "b": 1, "c": 2, "d": 3][removed])
        for (index, key) in ["a", "b", "c", "d"].enumerated() where key != removed {
            #expect(table[key] == index)
        }
        #expect(table[removed] == nil)
        #expect(table.count == (removed == "missing" ? 4 : 3))
        #expect(Set(table.keys) == Set(["a", "b", "c", "d"]).subtracting([removed]))
        table[removed] = 9
        #expect(table[removed] == 9)
    }

    @Test("a removal tells the position freed and the key moved into it",
          arguments: [("a", 0, "d" as String?), ("c", 2, "d"), ("d", 3, nil)])
    func removalTellsTheMove(removed: String, position: Int, movedKey: String?) throws {
        var table = Self.table(["a", "b", "c", "d"])
        let removed = table.remove(removed)
        let removal = try #require(removed)
        #expect(removal.value == position && removal.position == position && removal.movedKey == movedKey)
        if let movedKey { #expect(table.position(forKey: movedKey) == position) }
        let missing = table.remove("missing")
        #expect(missing == nil)
    }

    @Test func assigningNilRemovesAndIterationPairsEveryKeyWithItsValue() {
        var table = Self.table(["a", "b", "c"])
        table["a"] = nil
        let pairs = Dictionary(uniqueKeysWithValues: table.map { ($0.key, $0.value) })
        #expect(pairs == ["b": 1, "c": 2])
    }

    @Test func tablesWithTheSameEntriesAreEqualWhateverTheirOrder() {
        var left = Self.table(["a", "b", "c"])
        left.removeValue(forKey: "a")
        left["a"] = 0
        #expect(left == Self.table(["a", "b", "c"]))
        left["a"] = 5
        #expect(left != Self.table(["a", "b", "c"]))
    }
}
