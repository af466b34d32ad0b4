/// `Views`: the views of every kind that has them, or of one kind, for hosts to draw widgets with. The daemon sends
/// each kind's view document as its manifest loaded it (validated then) and renders nothing itself.
public enum ViewsMethod: VarlinkMethod {
    public static let method = ControlMethod.views

    public struct Parameters: Sendable, Hashable, Codable {
        /// Only this kind's views; an unknown kind is an `UnknownKind` error.
        public var kind: String?

        public init(kind: String? = nil) {
            self.kind = kind
        }
    }

    /// One kind's views.
    public struct KindViews: Sendable, Hashable, Codable {
        public var kind: String
        /// The view document (docs/views.md, docs/views.schema.json): `{"version": 1, "families": {...}}`.
        public var views: JSONValue
        /// The provider's asset folder, where the files of `image` elements' `asset` names are; nil when it has none.
        public var assets: String?

        public init(kind: String, views: JSONValue, assets: String? = nil) {
            self.kind = kind
            self.views = views
            self.assets = assets
        }
    }

    public struct Reply: Sendable, Hashable, Codable {
        /// Kinds with views, sorted by name: a kind without views is left out.
        public var views: [KindViews]

        public init(views: [KindViews]) {
            self.views = views
        }
    }
}
