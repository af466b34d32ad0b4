/// `Snapshot`: one entry made for a preview, as WidgetKit's `getSnapshot` with `isPreview` makes it for the widget
/// gallery (seed 001). The provider is asked for a `snapshot` of `kind` in `family`; parameters left out take the
/// manifest's defaults. Nothing is stored and no budget is spent.
public enum SnapshotMethod: VarlinkMethod {
    public static let method = ControlMethod.snapshot

    public struct Parameters: Sendable, Hashable, Codable {
        public var kind: String
        /// The family to preview; the manifest's first family when absent.
        public var family: String?
        public var parameters: [String: JSONValue]?

        public init(kind: String, family: String? = nil, parameters: [String: JSONValue]? = nil) {
            self.kind = kind
            self.family = family
            self.parameters = parameters
        }
    }

    public struct Reply: Sendable, Hashable, Codable {
        /// The family the entry was made for.
        public var family: String
        /// The provider's entry: its date and content.
        public var entry: WidgetSummary.CurrentEntry

        public init(family: String, entry: WidgetSummary.CurrentEntry) {
            self.family = family
            self.entry = entry
        }
    }
}
