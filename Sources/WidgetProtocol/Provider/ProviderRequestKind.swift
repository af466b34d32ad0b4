/// What the daemon asks a provider for: the `"request"` field of a v1 request.
public enum ProviderRequestKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// A full timeline: `{"entries": [...], "policy": ...}`.
    case timeline
    /// One entry for a preview (a gallery, `isPreview` true): `{"entry": {...}}`.
    case snapshot
    /// One entry shown while nothing better exists, without real data: `{"entry": {...}}`.
    case placeholder
    /// A default configuration for a newly added widget: `{"configuration": {...}}`.
    case defaults
    /// The choices for one parameter, optionally filtered by a search text: `{"options": [...]}`.
    case options
}
