/// The previews whose images the daemon keeps, per kind, newest last: a gallery asks each family (and maybe a few
/// configurations) of a kind, and `Image(kind:)` serves the images of the latest answers. Pure.
public struct KeptPreviews: Sendable {
    /// How many previews of one kind keep their images.
    public static let perKind = 8

    /// Each kind's kept previews, by their question, oldest first.
    public private(set) var questions: [String: [String]] = [:]

    /// No preview is kept.
    public init() {}

    /// Notes the preview `question` of `kind` as the newest; returns the question it pushed out, if any.
    public mutating func keep(kind: String, question: String) -> String? {
        var list = questions[kind] ?? []
        list.removeAll { $0 == question }
        list.append(question)
        var evicted: String?
        if list.count > Self.perKind { evicted = list.removeFirst() }
        questions[kind] = list
        return evicted
    }
}
