import Logging

/// `Logger.Metadata` for a line logged again and again with the same keys, such as a run's end: the dictionary is
/// kept from one line to the next and its values are overwritten in place, through indices looked up once, so a line
/// hashes no key and allocates no storage. A handler that keeps a line's metadata keeps that line's values: the next
/// line's first write copies the storage before changing it.
struct MetadataTemplate {
    /// The metadata, with the values last set.
    private(set) var metadata: Logger.Metadata
    private let keys: [String]
    private let indices: [Logger.Metadata.Index]
    /// The position after the key set last: where the next key usually is.
    private var next = 0

    /// A template with exactly `keys`, each with an empty string until set.
    init(keys: [String]) {
        var metadata = Logger.Metadata(minimumCapacity: keys.count)
        for key in keys {
            metadata[key] = .string("")
        }
        self.metadata = metadata
        self.keys = keys
        indices = keys.map { metadata.index(forKey: $0)! }
    }

    /// Sets the value of `key`, which must be one of the template's keys. Setting them in the order they were given
    /// finds each at the first comparison.
    mutating func set(_ key: String, _ value: Logger.MetadataValue) {
        // Equal strings made from the same literal compare equal on their first word; unequal ones cost a real
        // comparison, so the expected key is tried before any scan.
        let position: Int
        if next < keys.count, keys[next] == key {
            position = next
        } else if let found = keys.firstIndex(of: key) {
            position = found
        } else {
            preconditionFailure("\"\(key)\" is not a key of this template: \(keys)")
        }
        metadata.values[indices[position]] = value
        next = position + 1
    }
}
