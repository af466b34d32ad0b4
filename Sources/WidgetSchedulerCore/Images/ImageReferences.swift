/// Which stored images are referred to, and by whom: the keep-or-remove decision, pure. Each owner (a widget's stored
/// entries, a kind's kept preview) holds a set of hashes; an image is kept while any owner holds it. Setting an
/// owner's hashes returns those no owner holds any more: the caller removes their files once the state that no
/// longer names them is committed (the daemon's `WidgetService.removeReleasedImages`).
public struct ImageReferences: Sendable {
    /// Who refers to images.
    public enum Owner: Hashable, Sendable {
        /// A widget's stored timeline and its current entry.
        case widget(String)
        /// A preview of a kind, for one question (family and parameters).
        case preview(kind: String, question: String)
    }

    /// The hashes each owner holds.
    public private(set) var owners: [Owner: Set<String>] = [:]
    /// How many owners hold each hash.
    public private(set) var counts: [String: Int] = [:]

    /// No owner holds any image.
    public init() {}

    /// The hashes `owner` holds.
    public func hashes(of owner: Owner) -> Set<String> {
        owners[owner] ?? []
    }

    /// Whether any owner holds `hash`.
    public func isReferenced(_ hash: String) -> Bool {
        counts[hash] != nil
    }

    /// Every hash some owner holds.
    public var referenced: Set<String> { Set(counts.keys) }

    /// Makes `owner` hold exactly `hashes` (none: it is forgotten); returns the hashes no owner holds any more.
    @discardableResult
    public mutating func set(_ owner: Owner, _ hashes: Set<String>) -> Set<String> {
        let before = owners[owner] ?? []
        guard before != hashes else { return [] }
        owners[owner] = hashes.isEmpty ? nil : hashes
        var released = Set<String>()
        for hash in before.subtracting(hashes) {
            let count = (counts[hash] ?? 1) - 1
            if count <= 0 {
                counts[hash] = nil
                released.insert(hash)
            } else {
                counts[hash] = count
            }
        }
        for hash in hashes.subtracting(before) { counts[hash, default: 0] += 1 }
        return released
    }

    /// Among the images `stored`, those no owner holds: what to remove at start.
    public func orphans(among stored: Set<String>) -> Set<String> {
        stored.filter { counts[$0] == nil }
    }

    /// The hashes some owner holds that are not among the images `stored`: damage, the entries that name them show
    /// placeholders.
    public func missing(from stored: Set<String>) -> Set<String> {
        Set(counts.keys.filter { !stored.contains($0) })
    }
}
