/// Which stored images are referred to, and by whom: the keep-or-remove decision, pure. Each owner (a widget's stored
/// entries, a kind's kept preview) holds a set of hashes; an image is kept while any owner holds it. Setting an
/// owner's hashes returns those no owner holds any more: the caller removes their files once the state that no
/// longer names them is committed (`WidgetService.removeReleasedImages`).
struct ImageReferences {
    /// Who refers to images.
    enum Owner: Hashable {
        /// A widget's stored timeline and its current entry.
        case widget(String)
        /// A preview of a kind, for one question (family and parameters).
        case preview(kind: String, question: String)
    }

    private(set) var owners: [Owner: Set<String>] = [:]
    /// How many owners hold each hash.
    private(set) var counts: [String: Int] = [:]

    /// The hashes `owner` holds.
    func hashes(of owner: Owner) -> Set<String> {
        owners[owner] ?? []
    }

    /// Whether any owner holds `hash`.
    func isReferenced(_ hash: String) -> Bool {
        counts[hash] != nil
    }

    /// Every hash some owner holds.
    var referenced: Set<String> { Set(counts.keys) }

    /// Makes `owner` hold exactly `hashes` (none: it is forgotten); returns the hashes no owner holds any more.
    @discardableResult
    mutating func set(_ owner: Owner, _ hashes: Set<String>) -> Set<String> {
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

    /// The stored images to remove at start: those no stored reference names.
    static func orphans(stored: Set<String>, referenced: Set<String>) -> Set<String> {
        stored.subtracting(referenced)
    }
}

/// The previews whose images the daemon keeps, per kind, newest last: a gallery asks each family (and maybe a few
/// configurations) of a kind, and `Image(kind:)` serves the images of the latest answers. Pure.
struct KeptPreviews {
    /// How many previews of one kind keep their images.
    static let perKind = 8

    private(set) var questions: [String: [String]] = [:]

    /// Notes the preview `question` of `kind` as the newest; returns the question it pushed out, if any.
    mutating func keep(kind: String, question: String) -> String? {
        var list = questions[kind] ?? []
        list.removeAll { $0 == question }
        list.append(question)
        var evicted: String?
        if list.count > Self.perKind { evicted = list.removeFirst() }
        questions[kind] = list
        return evicted
    }
}
