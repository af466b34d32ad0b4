/// The manifests loaded from a list of directories, with the errors of the files that were rejected.
public struct ManifestSet: Sendable, Hashable {
    /// The valid manifests, sorted by file name.
    public var manifests: [ProviderManifest]
    /// One or more errors per rejected file, in file order.
    public var errors: [ManifestError]

    public init(manifests: [ProviderManifest] = [], errors: [ManifestError] = []) {
        self.manifests = manifests
        self.errors = errors
    }

    /// The manifest serving `kind`, if any.
    public func manifest(forKind kind: String) -> ProviderManifest? {
        manifests.first { $0.widget(kind: kind) != nil }
    }

    /// The widget kind named `kind`, if any manifest serves it.
    public func widgetKind(_ kind: String) -> WidgetKindManifest? {
        manifest(forKind: kind)?.widget(kind: kind)
    }

    /// Every kind served, sorted.
    public var kinds: [String] {
        manifests.flatMap { $0.widgets.map(\.kind) }.sorted()
    }
}
