/// A table of values by string key, kept dense: the values in one contiguous array, and a small key → position
/// index beside it.
///
/// Swift's `Dictionary` stores its values inside its hash buckets, which it keeps at most three quarters full and
/// sizes in powers of two: at 100 000 widgets that is 262 144 buckets, so a 200-byte schedule cost 2.6 times its size
/// and the scheduler's table alone 57 MB. Here only the index has buckets (a key and an `Int`); values take their
/// own size, and a scan of them runs through contiguous memory. Removal moves the last value into the gap, so the
/// order of iteration is not the order of insertion.
public struct DenseTable<Value> {
    private var positions: [String: Int] = [:]
    /// Keys by position, for iteration and for fixing a moved value's index on removal.
    public private(set) var keys: [String] = []
    /// Values by position, index for index with `keys`.
    public private(set) var values: ContiguousArray<Value> = []

    public init() {}

    public var count: Int { values.count }
    public var isEmpty: Bool { values.isEmpty }

    public mutating func reserveCapacity(_ capacity: Int) {
        positions.reserveCapacity(capacity)
        keys.reserveCapacity(capacity)
        values.reserveCapacity(capacity)
    }

    public subscript(key: String) -> Value? {
        get { positions[key].map { values[$0] } }
        set {
            if let newValue {
                if let position = positions[key] {
                    values[position] = newValue
                } else {
                    positions[key] = values.count
                    keys.append(key)
                    values.append(newValue)
                }
            } else {
                removeValue(forKey: key)
            }
        }
    }

    /// Where `key`'s value is in `values`; valid until a key is removed.
    public func position(forKey key: String) -> Int? {
        positions[key]
    }

    /// Calls `body` with the value at `position` of `values` in place: no hashing of the key.
    public mutating func modify<Result>(at position: Int, _ body: (inout Value) throws -> Result) rethrows -> Result {
        try body(&values[position])
    }

    /// Calls `body` with the value of `key` in place (no copy of it), or returns nil when there is none.
    @discardableResult
    public mutating func modify<Result>(_ key: String, _ body: (inout Value) throws -> Result) rethrows -> Result? {
        guard let position = positions[key] else { return nil }
        return try body(&values[position])
    }

    @discardableResult
    public mutating func removeValue(forKey key: String) -> Value? {
        guard let position = positions.removeValue(forKey: key) else { return nil }
        let removed = values[position]
        let last = values.count - 1
        if position != last {
            values.swapAt(position, last)
            keys.swapAt(position, last)
            positions[keys[position]] = position
        }
        values.removeLast()
        keys.removeLast()
        return removed
    }
}

extension DenseTable: Sequence {
    public struct Iterator: IteratorProtocol {
        fileprivate var keys: IndexingIterator<[String]>
        fileprivate var values: IndexingIterator<ContiguousArray<Value>>

        public mutating func next() -> (key: String, value: Value)? {
            guard let key = keys.next(), let value = values.next() else { return nil }
            return (key, value)
        }
    }

    public func makeIterator() -> Iterator {
        Iterator(keys: keys.makeIterator(), values: values.makeIterator())
    }

    public var underestimatedCount: Int { values.count }
}

extension DenseTable: Sendable where Value: Sendable {}
extension DenseTable: Equatable where Value: Equatable {
    /// Equal when they hold the same values under the same keys, whatever the order.
    public static func == (lhs: DenseTable, rhs: DenseTable) -> Bool {
        lhs.count == rhs.count && lhs.allSatisfy { rhs[$0.key] == $0.value }
    }
}
