/// A table of values by string key, kept dense: the values in one contiguous array, and a small key → position
/// index beside it.
///
/// Swift's `Dictionary` stores its values inside its hash buckets, which it keeps at most three quarters full and
/// sizes in powers of two, so a large schedule costs up to several times its size in a large table. Here only the
/// index has buckets (a key and an `Int`); values take their own size, and a scan of them runs through contiguous
/// memory. Removal moves the last value into the gap, so the order of iteration is not the order of insertion.
///
/// Its members are `@inlinable`, so that modules using it specialize them: the daemon's run path reads and writes two
/// tables (the service's widgets, the scheduler's schedules), and an unspecialized access paid a generic metadata
/// lookup and an `Optional.map` through witness tables on every access.
public struct DenseTable<Value> {
    @usableFromInline var positions: [String: Int] = [:]
    @usableFromInline var storedKeys: [String] = []
    @usableFromInline var storedValues: ContiguousArray<Value> = []

    /// Keys by position, for iteration and for fixing a moved value's index on removal.
    @inlinable public var keys: [String] { storedKeys }
    /// Values by position, index for index with `keys`.
    @inlinable public var values: ContiguousArray<Value> { storedValues }

    @inlinable public init() {}

    @inlinable public var count: Int { storedValues.count }
    @inlinable public var isEmpty: Bool { storedValues.isEmpty }

    @inlinable public mutating func reserveCapacity(_ capacity: Int) {
        positions.reserveCapacity(capacity)
        storedKeys.reserveCapacity(capacity)
        storedValues.reserveCapacity(capacity)
    }

    @inlinable public subscript(key: String) -> Value? {
        get { positions[key].map { storedValues[$0] } }
        set {
            if let newValue {
                if let position = positions[key] {
                    storedValues[position] = newValue
                } else {
                    positions[key] = storedValues.count
                    storedKeys.append(key)
                    storedValues.append(newValue)
                }
            } else {
                removeValue(forKey: key)
            }
        }
    }

    /// Where `key`'s value is in `values`; valid until a key is removed.
    @inlinable public func position(forKey key: String) -> Int? {
        positions[key]
    }

    /// The value at `position` of `values`, read and changed where it is: no hashing of the key, and a field read or
    /// written without copying the rest of the value.
    @inlinable public subscript(position position: Int) -> Value {
        // Yielding accessors: a getter and setter would copy the whole value out and back for each field.
        _read { yield storedValues[position] }
        _modify { yield &storedValues[position] }
    }

    /// Calls `body` with the value at `position` of `values` in place: no hashing of the key.
    @inlinable
    public mutating func modify<Result>(at position: Int, _ body: (inout Value) throws -> Result) rethrows -> Result {
        try body(&storedValues[position])
    }

    /// Calls `body` with the value of `key` in place (no copy of it), or returns nil when there is none.
    @inlinable @discardableResult
    public mutating func modify<Result>(_ key: String, _ body: (inout Value) throws -> Result) rethrows -> Result? {
        guard let position = positions[key] else { return nil }
        return try body(&storedValues[position])
    }

    @inlinable @discardableResult
    public mutating func removeValue(forKey key: String) -> Value? {
        remove(key)?.value
    }

    /// What `remove(_:)` did: the value removed, the position it held, and the key of the value the table moved
    /// from its end into that position (nil when the removed value was the last).
    public struct Removal {
        public var value: Value
        public var position: Int
        public var movedKey: String?

        @inlinable public init(value: Value, position: Int, movedKey: String?) {
            self.value = value
            self.position = position
            self.movedKey = movedKey
        }
    }

    /// Removes `key`'s value, moving the last value into its place; nil when there is none. Whatever keeps state by
    /// position beside the table follows the move through the result.
    @inlinable @discardableResult
    public mutating func remove(_ key: String) -> Removal? {
        guard let position = positions.removeValue(forKey: key) else { return nil }
        let removed = storedValues[position]
        let last = storedValues.count - 1
        var movedKey: String?
        if position != last {
            storedValues.swapAt(position, last)
            storedKeys.swapAt(position, last)
            positions[storedKeys[position]] = position
            movedKey = storedKeys[position]
        }
        storedValues.removeLast()
        storedKeys.removeLast()
        return Removal(value: removed, position: position, movedKey: movedKey)
    }
}

extension DenseTable: Sequence {
    public struct Iterator: IteratorProtocol {
        @usableFromInline var keys: IndexingIterator<[String]>
        @usableFromInline var values: IndexingIterator<ContiguousArray<Value>>

        @inlinable init(keys: IndexingIterator<[String]>, values: IndexingIterator<ContiguousArray<Value>>) {
            self.keys = keys
            self.values = values
        }

        @inlinable public mutating func next() -> (key: String, value: Value)? {
            guard let key = keys.next(), let value = values.next() else { return nil }
            return (key, value)
        }
    }

    @inlinable public func makeIterator() -> Iterator {
        Iterator(keys: storedKeys.makeIterator(), values: storedValues.makeIterator())
    }

    @inlinable public var underestimatedCount: Int { storedValues.count }
}

extension DenseTable: Sendable where Value: Sendable {}
extension DenseTable: Equatable where Value: Equatable {
    /// Equal when they hold the same values under the same keys, whatever the order.
    public static func == (lhs: DenseTable, rhs: DenseTable) -> Bool {
        lhs.count == rhs.count && lhs.allSatisfy { rhs[$0.key] == $0.value }
    }
}
