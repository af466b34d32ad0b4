import WidgetProtocol

/// A kind's views: one per family it supports, from its view file (`views = "weather.views.json"` in the manifest) or
/// from the manifest itself. Hosts get the document's JSON from the daemon (`Views`) and parse it with
/// `ViewDocument(json:)`.
public struct ViewDocument: Sendable, Hashable {
    /// The schema version this library reads and writes (docs/views.schema.json).
    public static let version = 1

    /// The view of each family.
    public var families: [WidgetFamily: FamilyView]

    public init(families: [WidgetFamily: FamilyView]) {
        self.families = families
    }

    /// Parses and validates a document; the error lists every problem, each with its path in the document.
    public init(json: JSONValue) throws(ViewIssues) {
        self = try ViewParser.parse(json).get()
    }

    /// The view of `family`, if the document has one.
    public func view(for family: WidgetFamily) -> FamilyView? {
        families[family]
    }

    /// The families with a view, in `WidgetFamily` order.
    public var sortedFamilies: [WidgetFamily] { families.keys.sorted() }
}
