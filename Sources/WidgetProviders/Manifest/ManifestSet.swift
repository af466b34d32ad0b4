/// The manifests loaded from a list of directories, with the errors of the files that were rejected.
public struct ManifestSet: Sendable, Hashable {
    /// The valid manifests, sorted by file name.
    public var manifests: [ProviderManifest] {
        didSet { manifestIndexByKind = Self.indexByKind(manifests) }
    }
    /// One or more errors per rejected file, in file order.
    public var errors: [ManifestError]
    /// The directories looked in, in order, with what each held.
    public var directories: [ManifestDirectory] = []
    /// Where in `manifests` each kind's manifest is (the first serving it): every run looks its manifest up, and a
    /// search through every manifest's kinds would cost a daemon with many kinds for each one.
    private var manifestIndexByKind: [String: Int]

    public init(manifests: [ProviderManifest] = [], errors: [ManifestError] = []) {
        self.manifests = manifests
        self.errors = errors
        manifestIndexByKind = Self.indexByKind(manifests)
    }

    /// The manifest serving `kind`, if any.
    public func manifest(forKind kind: String) -> ProviderManifest? {
        manifestIndexByKind[kind].map { manifests[$0] }
    }

    private static func indexByKind(_ manifests: [ProviderManifest]) -> [String: Int] {
        var index: [String: Int] = [:]
        for (position, manifest) in manifests.enumerated() {
            for widget in manifest.widgets where index[widget.kind] == nil { index[widget.kind] = position }
        }
        return index
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
